import { Module } from '@nestjs/common';
import { AuditRecorder } from './audit.recorder';
import { AuditService } from './audit.service';
import { AuditEventsV2Controller } from './audit.v2.controller';

/** The audit log (table audit_events): its one recording hook (AuditRecorder, installed by app.factory.ts) and its /v2 reads. */
@Module({
  providers: [AuditRecorder, AuditService],
  controllers: [AuditEventsV2Controller],
  exports: [AuditRecorder],
})
export class AuditModule {}
