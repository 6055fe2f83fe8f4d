import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Label, Tag } from './entities';
import { LabelsService } from './labels.service';
import { LabelsV1Controller, TagsV1Controller } from './names.v1.controller';
import { TagsService } from './tags.service';

/** Labels (`/v1/labels`, attached to courses through courses/' course_labels) and catalog tags (`/v1/tags`). Owns tables labels and tags. */
@Module({
  imports: [TypeOrmModule.forFeature([Label, Tag])],
  controllers: [LabelsV1Controller, TagsV1Controller],
  providers: [LabelsService, TagsService],
  exports: [LabelsService, TagsService],
})
export class LabelsTagsModule {}
