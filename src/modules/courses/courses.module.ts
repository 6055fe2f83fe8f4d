import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LabelsTagsModule } from '../labels-tags/labels-tags.module';
import { Course } from './course.entity';
import { CourseLabel } from './course-label.entity';
import { CourseLabelsService } from './course-labels.service';
import { CoursesController } from './courses.controller';
import { CoursesService } from './courses.service';
import { CoursesV1Controller } from './courses.v1.controller';
import { V1CoursesService } from './courses.v1.service';

/** Courses on /v2 (CoursesController) and /v1 (CoursesV1Controller, with the course labels), over one entity. Owns courses and course_labels. */
@Module({
  imports: [TypeOrmModule.forFeature([Course, CourseLabel]), LabelsTagsModule],
  controllers: [CoursesController, CoursesV1Controller],
  providers: [CoursesService, V1CoursesService, CourseLabelsService],
  exports: [CoursesService, V1CoursesService],
})
export class CoursesModule {}
