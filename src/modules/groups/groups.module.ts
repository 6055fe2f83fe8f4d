import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PublishedCoursesModule } from '../published-courses/published-courses.module';
import { GroupCategory } from './group-category.entity';
import { GroupMembership } from './group-membership.entity';
import { Group } from './group.entity';
import { GroupsService } from './groups.service';
import { GroupsV2Controller } from './groups.v2.controller';
import { VisibilityOverride } from './visibility-override.entity';
import { VisibilityOverridesService } from './visibility-overrides.service';
import { VisibilityOverridesV2Controller } from './visibility-overrides.v2.controller';

@Module({
  imports: [TypeOrmModule.forFeature([Group, GroupCategory, GroupMembership, VisibilityOverride]), PublishedCoursesModule],
  controllers: [GroupsV2Controller, VisibilityOverridesV2Controller],
  providers: [GroupsService, VisibilityOverridesService],
  exports: [GroupsService],
})
export class GroupsModule {}
