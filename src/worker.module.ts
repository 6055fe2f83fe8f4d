import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './core/config/config';
import { CoreModule } from './core/core.module';
import { MaintenanceModule } from './modules/maintenance/maintenance.module';
import { WebhooksWorkerModule } from './modules/webhooks/webhooks-worker.module';
import { ContentFilesWorkerModule } from './modules/content-files/content-files-worker.module';
import { MailModule } from './modules/mail/mail.module';
import { TrainingWorkerModule } from './modules/training/training-worker.module';
import { ReenrollmentWorkerModule } from './modules/reenrollment/reenrollment-worker.module';
import { DataOutWorkerModule } from './modules/data-out/data-out.module';

/**
 * The worker process: core (config, logging, database, Redis, queues) plus the queue processors.
 * Processors are registered here and nowhere else; the API only produces jobs.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(config, { http: false }),
        ContentFilesWorkerModule,
        MailModule,
        MaintenanceModule,
        WebhooksWorkerModule,
        TrainingWorkerModule,
        ReenrollmentWorkerModule,
        DataOutWorkerModule,
      ],
    };
  }
}
