import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Domain } from './domain.entity';
import { DomainsService } from './domains.service';

@Module({ imports: [TypeOrmModule.forFeature([Domain])], providers: [DomainsService], exports: [DomainsService] })
export class DomainsModule {}
