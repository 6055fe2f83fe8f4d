import { Module } from '@nestjs/common';
import { AuditRecorder } from './audit.recorder';
import { AuditService } from './audit.service';
import { AuditEventsV2Controller } from './audit.v2.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEvent } from './audit-event.entity';

/** The audit log (table audit_events): its one recording hook (AuditRecorder, installed by app.factory.ts) and its /v2 reads. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent])],
  providers: [AuditRecorder, AuditService],
  controllers: [AuditEventsV2Controller],
  exports: [AuditRecorder],
})
export class AuditModule {}
