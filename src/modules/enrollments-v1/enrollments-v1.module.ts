import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { PublishedCoursesModule } from '../published-courses/published-courses.module';
import { EnrollmentsV1Controller } from './enrollments-v1.controller';
import { EnrollmentsV1Service } from './enrollments-v1.service';

/** Enrollments of published courses on /v1 (the shared enrollments table). */
@Module({
  imports: [DomainsModule, PublishedCoursesModule],
  controllers: [EnrollmentsV1Controller],
  providers: [EnrollmentsV1Service],
})
export class EnrollmentsV1Module {}
