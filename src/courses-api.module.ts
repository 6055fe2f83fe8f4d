import { Module } from '@nestjs/common';
import { AnalyticsModule } from './modules/analytics/analytics.module';
import { CertificatesModule } from './modules/certificates/certificates.module';
import { EnrollmentsModule } from './modules/enrollments/enrollments.module';
import { LessonsModule } from './modules/lessons/lessons.module';
import { CoursesModule } from './modules/courses/courses.module';

/** The /v2 content and reporting area (courses, lessons, course analytics, certificates), registered in AppModule as one entry. */
@Module({ imports: [CoursesModule, LessonsModule, EnrollmentsModule, AnalyticsModule, CertificatesModule] })
export class CoursesApiModule {}
