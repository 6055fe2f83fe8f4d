import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { AccessRulesService } from './access-rules.service';
import { PublishedCourseExtrasService } from './published-course-extras.service';
import { PublishedCourse } from './published-course.entity';
import { PublicationsService } from './publications.service';
import { PublishedCoursesService } from './published-courses.service';
import { PublishedCoursesV1Controller } from './published-courses.v1.controller';
import { PublishedCoursesV2Controller } from './published-courses.v2.controller';
import { PublishedCoursesV2Service } from './published-courses.v2.service';
import { CoursesModule } from '../courses/courses.module';
import { PublishedCourseGroupPrerequisite } from './published-course-group-prerequisite.entity';
import { PublishedCoursePrerequisite } from './published-course-prerequisite.entity';
import { PublishedCourseTag } from './published-course-tag.entity';

@Module({
  imports: [TypeOrmModule.forFeature([PublishedCourse, PublishedCourseGroupPrerequisite, PublishedCoursePrerequisite, PublishedCourseTag]), DomainsModule, CoursesModule],
  controllers: [PublishedCoursesV1Controller, PublishedCoursesV2Controller],
  providers: [PublicationsService, PublishedCoursesService, PublishedCoursesV2Service, AccessRulesService, PublishedCourseExtrasService],
  exports: [PublishedCoursesService, AccessRulesService],
})
export class PublishedCoursesModule {}
