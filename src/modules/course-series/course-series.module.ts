import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { CourseSeries } from './course-series.entity';
import { CourseSeriesAdminService } from './course-series-admin.service';
import { CourseSeriesAdminV1Controller } from './course-series-admin.v1.controller';
import { CourseSeriesService } from './course-series.service';
import { CourseSeriesV1Controller } from './course-series.v1.controller';
import { CourseSeriesItem } from './course-series-item.entity';

/** Course series of a domain and their published courses (reads; administrative writes, CONVENTIONS §15). */
@Module({
  imports: [TypeOrmModule.forFeature([CourseSeries, CourseSeriesItem]), DomainsModule],
  controllers: [CourseSeriesV1Controller, CourseSeriesAdminV1Controller],
  providers: [CourseSeriesService, CourseSeriesAdminService],
  exports: [CourseSeriesService, CourseSeriesAdminService],
})
export class CourseSeriesModule {}
