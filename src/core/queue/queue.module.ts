import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { redisOptions } from '../redis/redis.module';
import { JobSchedulers } from './job-schedulers';
import { QueueErrorLogger } from './queue-errors';
import { QUEUES } from './queues';

const queues = Object.values(QUEUES).map((name) => BullModule.registerQueue({ name }));

/**
 * BullMQ connection and every queue, as producers. Processors live in the worker process only;
 * JobSchedulers keeps the worker's repeatable jobs alive across Redis restarts.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        connection: { ...redisOptions(config), maxRetriesPerRequest: null },
        prefix: `${config.REDIS_PREFIX}:bull`,
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000, attempts: 5, backoff: { type: 'exponential', delay: 1000 } },
      }),
    }),
    ...queues,
  ],
  providers: [JobSchedulers, QueueErrorLogger],
  exports: [...queues, JobSchedulers],
})
export class QueueModule {}
