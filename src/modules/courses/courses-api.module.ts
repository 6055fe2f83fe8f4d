import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { CertificatesModule } from '../certificates/certificates.module';
import { EnrollmentsModule } from '../enrollments/enrollments.module';
import { LessonsModule } from '../lessons/lessons.module';
import { CoursesModule } from './courses.module';

/** The /v2 content and reporting area (courses, lessons, course analytics, certificates), registered in AppModule as one entry. */
@Module({ imports: [CoursesModule, LessonsModule, EnrollmentsModule, AnalyticsModule, CertificatesModule] })
export class CoursesApiModule {}
