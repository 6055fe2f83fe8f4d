import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CoursesModule } from '../courses/courses.module';
import { ContentItemsV1Controller } from './content-items.v1.controller';
import { V1ContentItemsService } from './content-items.v1.service';
import { Lesson } from './lesson.entity';
import { LessonsController } from './lessons.controller';
import { LessonsService } from './lessons.service';
import { LessonsV1Controller } from './lessons.v1.controller';
import { V1LessonsService } from './lessons.v1.service';
import { RatingContentBlocksV1Controller } from './rating-content-blocks.v1.controller';
import { RatingContentBlocksV1Service } from './rating-content-blocks.v1.service';

/** Lessons on /v2 and /v1 over one entity, and the /v1 content items (blocks stored in lessons.content_items). Owns lessons. */
@Module({
  imports: [TypeOrmModule.forFeature([Lesson]), CoursesModule],
  controllers: [LessonsController, LessonsV1Controller, ContentItemsV1Controller, RatingContentBlocksV1Controller],
  providers: [LessonsService, V1LessonsService, V1ContentItemsService, RatingContentBlocksV1Service],
  exports: [LessonsService],
})
export class LessonsModule {}
