import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { PublishedCoursesModule } from '../published-courses/published-courses.module';
import { ReenrollmentRulesService } from './reenrollment-rules.service';
import { ReenrollmentRulesV1Controller } from './reenrollment-rules.v1.controller';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReenrollmentRule } from './reenrollment-rule.entity';
import { ReenrollmentRun } from './reenrollment-run.entity';

/** Re-enrollment rules of published courses (/v1). Owns reenrollment_rules and reenrollment_runs; the runs are the worker's (ReenrollmentWorkerModule). */
@Module({
  imports: [TypeOrmModule.forFeature([ReenrollmentRule, ReenrollmentRun]), DomainsModule, PublishedCoursesModule],
  controllers: [ReenrollmentRulesV1Controller],
  providers: [ReenrollmentRulesService],
})
export class ReenrollmentModule {}
