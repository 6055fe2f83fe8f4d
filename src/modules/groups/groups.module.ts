import { GroupsProvisioning } from './groups.provisioning';
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
import { GroupAccessCodePoolsV1Controller } from './group-access-code-pools.v1.controller';
import { GroupCategoriesV1Controller } from './group-categories.v1.controller';
import { GroupUsersV1Controller, UserGroupsV1Controller } from './group-users.v1.controller';
import { GroupsV1Controller } from './groups.v1.controller';
import { GroupsV1Service } from './groups.v1.service';
import { GroupLinksV1Service } from './group-links.v1.service';
import { GroupMembershipsService } from './group-memberships.service';
import { GroupStudentsV2Controller } from './group-students.v2.controller';
import { GroupCategoriesAdminV1Controller } from './group-categories-admin.v1.controller';
import { GroupCategoriesService } from './group-categories.service';
import { GroupAccessCodePool } from './group-access-code-pool.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Group, GroupCategory, GroupMembership, VisibilityOverride, GroupAccessCodePool]), PublishedCoursesModule],
  controllers: [
    GroupsV2Controller,
    VisibilityOverridesV2Controller,
    GroupStudentsV2Controller,
    GroupsV1Controller,
    GroupUsersV1Controller,
    UserGroupsV1Controller,
    GroupAccessCodePoolsV1Controller,
    GroupCategoriesV1Controller,
    GroupCategoriesAdminV1Controller,
  ],
  providers: [GroupsService, VisibilityOverridesService, GroupsV1Service, GroupLinksV1Service, GroupMembershipsService, GroupCategoriesService, GroupsProvisioning],
  exports: [GroupsService, GroupCategoriesService, GroupsProvisioning],
})
export class GroupsModule {}
