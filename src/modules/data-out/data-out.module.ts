import { Module } from '@nestjs/common';
import { fileStorageProvider } from '../../core/storage/storage.provider';
import { EventsV2Controller } from './events.v2.controller';
import { ExportRunner } from './export-runner';
import { ExportsProcessor } from './exports.processor';
import { ExportsService } from './exports.service';
import { ExportsV2Controller } from './exports.v2.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataExport } from './data-export.entity';

/** Data out (CONVENTIONS §20), API side: the event log and exports. Owner of data_exports. */
@Module({
  imports: [TypeOrmModule.forFeature([DataExport])],
  controllers: [EventsV2Controller, ExportsV2Controller],
  providers: [ExportsService],
})
export class DataOutModule {}

/** Data out, worker side: the export runner and its queue consumer (imported by the worker module only). */
@Module({
  providers: [ExportRunner, ExportsProcessor, fileStorageProvider],
  exports: [ExportRunner],
})
export class DataOutWorkerModule {}
