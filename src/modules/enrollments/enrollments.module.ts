import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { PublishedCoursesModule } from '../published-courses/published-courses.module';
import { Enrollment } from './enrollment.entity';
import { EnrollmentsService } from './enrollments.service';
import { EnrollmentsV1Controller } from './enrollments.v1.controller';
import { EnrollmentsV1Service } from './enrollments.v1.service';
import { EnrollmentsBatchService } from './enrollments.batch.service';
import { EnrollmentsCompletionService } from './enrollments.completion.service';
import { EnrollmentsV2Controller } from './enrollments.v2.controller';
import { EnrollmentsV2Service } from './enrollments.v2.service';

/** Enrollments: the /v1 enrollments of published courses and the /v2 course analytics aggregate. Owns the enrollments table. */
@Module({
  imports: [TypeOrmModule.forFeature([Enrollment]), DomainsModule, PublishedCoursesModule],
  controllers: [EnrollmentsV1Controller, EnrollmentsV2Controller],
  providers: [EnrollmentsService, EnrollmentsV1Service, EnrollmentsV2Service, EnrollmentsBatchService, EnrollmentsCompletionService],
  exports: [EnrollmentsService, EnrollmentsV1Service],
})
export class EnrollmentsModule {}
