import { Module } from '@nestjs/common';
import { ReenrollmentProcessor } from './reenrollment.processor';
import { ReenrollmentRunner } from './reenrollment.runner';

/** The worker side of re-enrollment: the tick and the runs (worker process only). */
@Module({
  providers: [ReenrollmentRunner, ReenrollmentProcessor],
  exports: [ReenrollmentRunner],
})
export class ReenrollmentWorkerModule {}
