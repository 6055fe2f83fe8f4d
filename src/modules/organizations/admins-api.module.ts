import { Module } from '@nestjs/common';
import { AdminRolesV1Controller, AdminsV1Controller } from './admins.v1.controller';
import { OrganizationsModule } from './organizations.module';

/** The HTTP side of administrators and roles (the CLI loads OrganizationsModule without it). */
@Module({
  imports: [OrganizationsModule],
  controllers: [AdminsV1Controller, AdminRolesV1Controller],
})
export class AdminsApiModule {}
