import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { IndexController } from './index.controller';
import { MetricsController } from './metrics.controller';
import { PingV1Controller } from './ping.v1.controller';

@Module({ controllers: [HealthController, PingV1Controller, MetricsController, IndexController] })
export class HealthModule {}
