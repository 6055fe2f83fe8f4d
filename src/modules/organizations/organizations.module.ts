import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { OAuthClient } from '../auth/oauth.entities';
import { Admin, ApiKey, Organization } from './organization.entity';
import { AdminsService } from './admins.service';
import { AdminRolesService } from './admin-roles.service';
import { OrganizationsService } from './organizations.service';

@Module({
  // OAuthClient: create() inserts the bootstrap client; registered here so the CLI (which loads
  // no OAuth module) knows the entity too
  imports: [TypeOrmModule.forFeature([Organization, Admin, ApiKey, OAuthClient]), DomainsModule],
  providers: [OrganizationsService, AdminsService, AdminRolesService],
  exports: [OrganizationsService, AdminsService, AdminRolesService],
})
export class OrganizationsModule {}
