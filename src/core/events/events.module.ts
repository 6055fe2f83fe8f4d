import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxEvent } from './outbox-event.entity';

/** The outbox's table in TypeORM's metadata (its statements are outbox.ts, log.ts, retention.ts). */
@Module({
  imports: [TypeOrmModule.forFeature([OutboxEvent])],
})
export class EventsModule {}
