import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { DomainUserInvitesService } from './domain-user-invites.service';
import { DomainUsersService } from './domain-users.service';
import { DomainUsersV1Controller } from './domain-users.v1.controller';
import { DomainMembershipsV2Controller } from './domain-memberships.v2.controller';
import { DomainMembershipsV2Service } from './domain-memberships.v2.service';
import { ManagerAccessService } from './manager-access.service';
import { ManagerAccessV1Controller } from './manager-access.v1.controller';
import { SignupFieldAdminService } from './signup-field-admin.service';
import { SignupFieldsAdminV1Controller } from './signup-fields-admin.v1.controller';
import { SignupFieldsService } from './signup-fields.service';
import { SignupFieldsV1Controller } from './signup-fields.v1.controller';
import { SignupFieldValuesV2Controller } from './signup-field-values.v2.controller';
import { SignupFieldValuesV2Service } from './signup-field-values.v2.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainUserInvite } from './domain-user-invite.entity';
import { DomainUserEntity } from './domain-user.entity';
import { ManagerAccess } from './manager-access.entity';
import { ManagerAccessCourse } from './manager-access-course.entity';
import { ManagerAccessLicense } from './manager-access-license.entity';
import { ManagerAccessPath } from './manager-access-path.entity';
import { SignupFieldValue } from './signup-field-value.entity';
import { SignupField } from './signup-field.entity';

/** Domain membership of users, invites, signup fields and signup-field values (/v1). */
@Module({
  imports: [TypeOrmModule.forFeature([DomainUserInvite, DomainUserEntity, ManagerAccess, ManagerAccessCourse, ManagerAccessLicense, ManagerAccessPath, SignupFieldValue, SignupField]), DomainsModule],
  controllers: [DomainUsersV1Controller, SignupFieldsV1Controller, SignupFieldsAdminV1Controller, SignupFieldValuesV2Controller, DomainMembershipsV2Controller, ManagerAccessV1Controller],
  providers: [DomainUsersService, DomainUserInvitesService, SignupFieldsService, SignupFieldAdminService, SignupFieldValuesV2Service, DomainMembershipsV2Service, ManagerAccessService],
  exports: [DomainUsersService, DomainUserInvitesService, SignupFieldAdminService],
})
export class DomainUsersModule {}
