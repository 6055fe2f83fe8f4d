import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { CourseSeries } from './course-series.entity';
import { CourseSeriesService } from './course-series.service';
import { CourseSeriesV1Controller } from './course-series.v1.controller';

/** Course series of a domain and their published courses (read-only). */
@Module({
  imports: [TypeOrmModule.forFeature([CourseSeries]), DomainsModule],
  controllers: [CourseSeriesV1Controller],
  providers: [CourseSeriesService],
})
export class CourseSeriesModule {}
