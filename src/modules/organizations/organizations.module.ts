import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { Admin, ApiKey, Organization } from './organization.entity';
import { AdminsService } from './admins.service';
import { AdminRolesService } from './admin-roles.service';
import { OrganizationsService } from './organizations.service';
import { AdminRole } from './admin-role.entity';

@Module({
  // OrganizationOAuth (the bootstrap client, the revocations) comes from modules/auth's global
  // OrganizationOAuthModule, imported by the root module (AppModule, the CLI's)
  imports: [TypeOrmModule.forFeature([Organization, Admin, ApiKey, AdminRole]), DomainsModule],
  providers: [OrganizationsService, AdminsService, AdminRolesService],
  exports: [OrganizationsService, AdminsService, AdminRolesService],
})
export class OrganizationsModule {}
