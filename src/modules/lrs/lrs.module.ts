import { Module } from '@nestjs/common';
import { LrsController, LrsKeysV1Controller } from './lrs.controller';
import { LrsService } from './lrs.service';

/** The LRS at /xapi/ and its keys (CONVENTIONS §18, docs/decisions/lrs.md). Owns lrs_keys, lrs_statements, lrs_attachments, lrs_documents. */
@Module({
  controllers: [LrsKeysV1Controller, LrsController],
  providers: [LrsService],
  exports: [LrsService],
})
export class LrsModule {}
