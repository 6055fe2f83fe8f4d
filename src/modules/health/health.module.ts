import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { PingV1Controller } from './ping.v1.controller';

@Module({ controllers: [HealthController, PingV1Controller] })
export class HealthModule {}
