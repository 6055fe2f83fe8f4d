import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContentItemsV1Controller } from './content-items.v1.controller';
import { V1ContentItemsService } from './content-items.v1.service';
import { CoursesV1Controller } from './courses.v1.controller';
import { V1CoursesService } from './courses.v1.service';
import { CourseLabel, Label, Tag, V1Course, V1Lesson } from './entities';
import { LabelsV1Controller } from './labels.v1.controller';
import { LabelsService } from './labels.service';
import { LessonsV1Controller } from './lessons.v1.controller';
import { V1LessonsService } from './lessons.v1.service';
import { TagsV1Controller } from './tags.v1.controller';
import { TagsService } from './tags.service';

/** The /v1 content families: courses and their labels, labels, tags, lessons and their content items. */
@Module({
  imports: [TypeOrmModule.forFeature([Label, CourseLabel, Tag, V1Course, V1Lesson])],
  controllers: [CoursesV1Controller, LabelsV1Controller, TagsV1Controller, LessonsV1Controller, ContentItemsV1Controller],
  providers: [V1CoursesService, LabelsService, TagsService, V1LessonsService, V1ContentItemsService],
  exports: [LabelsService, TagsService],
})
export class CatalogContentModule {}
