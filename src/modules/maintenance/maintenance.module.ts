import { Module } from '@nestjs/common';
import { CleanupProcessor } from './cleanup.processor';
import { CleanupService } from './cleanup.service';

/** Housekeeping jobs of the maintenance queue. Imported by the worker module only. */
@Module({
  providers: [CleanupService, CleanupProcessor],
  exports: [CleanupService],
})
export class MaintenanceModule {}
