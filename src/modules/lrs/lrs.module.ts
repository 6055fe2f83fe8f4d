import { Module } from '@nestjs/common';
import { LrsController, LrsKeysV1Controller } from './lrs.controller';
import { LrsService } from './lrs.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LrsAttachment } from './lrs-attachment.entity';
import { LrsDocument } from './lrs-document.entity';
import { LrsKey } from './lrs-key.entity';
import { LrsStatementAgent } from './lrs-statement-agent.entity';
import { LrsStatement } from './lrs-statement.entity';

/** The LRS at /xapi/ and its keys (CONVENTIONS §18, docs/decisions/lrs.md). Owns lrs_keys, lrs_statements, lrs_attachments, lrs_documents. */
@Module({
  imports: [TypeOrmModule.forFeature([LrsAttachment, LrsDocument, LrsKey, LrsStatementAgent, LrsStatement])],
  controllers: [LrsKeysV1Controller, LrsController],
  providers: [LrsService],
  exports: [LrsService],
})
export class LrsModule {}
