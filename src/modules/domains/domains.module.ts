import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Domain } from './domain.entity';
import { DomainsService } from './domains.service';
import { DomainsV1Controller } from './domains.v1.controller';

@Module({ imports: [TypeOrmModule.forFeature([Domain])], controllers: [DomainsV1Controller], providers: [DomainsService], exports: [DomainsService] })
export class DomainsModule {}
