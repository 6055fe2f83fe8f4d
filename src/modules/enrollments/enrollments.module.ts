import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { ProgressModule } from '../progress/progress.module';
import { PublishedCoursesModule } from '../published-courses/published-courses.module';
import { Enrollment } from './enrollment.entity';
import { EnrollmentsService } from './enrollments.service';
import { EnrollmentsV1Controller } from './enrollments.v1.controller';
import { EnrollmentsV1Service } from './enrollments.v1.service';

/** Enrollments: the /v1 enrollments of published courses and the /v2 course analytics aggregate. Owns the enrollments table. */
@Module({
  imports: [TypeOrmModule.forFeature([Enrollment]), DomainsModule, PublishedCoursesModule, ProgressModule],
  controllers: [EnrollmentsV1Controller],
  providers: [EnrollmentsService, EnrollmentsV1Service],
  exports: [EnrollmentsService, EnrollmentsV1Service],
})
export class EnrollmentsModule {}
