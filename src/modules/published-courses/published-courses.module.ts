import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { AccessRulesService } from './access-rules.service';
import { PublishedCourseExtrasService } from './published-course-extras.service';
import { PublishedCourse } from './published-course.entity';
import { PublishedCoursesService } from './published-courses.service';
import { PublishedCoursesV1Controller } from './published-courses.v1.controller';

@Module({
  imports: [TypeOrmModule.forFeature([PublishedCourse]), DomainsModule],
  controllers: [PublishedCoursesV1Controller],
  providers: [PublishedCoursesService, AccessRulesService, PublishedCourseExtrasService],
  exports: [PublishedCoursesService, AccessRulesService],
})
export class PublishedCoursesModule {}
