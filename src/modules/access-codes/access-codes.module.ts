import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { AccessCode, AccessCodePool } from './access-code.entity';
import { AccessCodesService } from './access-codes.service';
import { AccessCodesV1Controller } from './access-codes.v1.controller';
import { AccessCodeUse } from './access-code-use.entity';

/** Access code pools and access codes of a domain. */
@Module({
  imports: [TypeOrmModule.forFeature([AccessCodePool, AccessCode, AccessCodeUse]), DomainsModule],
  controllers: [AccessCodesV1Controller],
  providers: [AccessCodesService],
  exports: [AccessCodesService],
})
export class AccessCodesModule {}
