import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { isUnreachable } from '../runtime/startup';
import { QUEUES } from './queues';

/**
 * Connection errors of the producer queues (Redis down or restarting) are logged as one warning
 * per queue and per 10 s, instead of BullMQ's console output for an `error` event nobody listens to.
 */
@Injectable()
export class QueueErrorLogger implements OnModuleInit {
  private readonly logger = new Logger('Queue');
  private readonly last = new Map<string, number>();

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit() {
    for (const name of Object.values(QUEUES)) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      queue.on('error', (err: Error) => {
        // Redis unreachable: the process's Redis connection reports it once per attempt (core/redis)
        if (isUnreachable(err)) return;
        const now = Date.now();
        if (now - (this.last.get(name) ?? 0) < 10_000) return;
        this.last.set(name, now);
        this.logger.warn({ msg: 'queue connection error', queue: name, err: err.message });
      });
    }
  }
}
