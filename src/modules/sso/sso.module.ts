import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { OrganizationSsoV1Controller } from './organization-sso.v1.controller';
import { SsoConfigService } from './sso-config.service';
import { SsoController } from './sso.controller';
import { SsoService } from './sso.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationSso } from './organization-sso.entity';

/** Administrator single sign-on (CONVENTIONS §19): owner of `organization_sso`. */
@Module({
  imports: [TypeOrmModule.forFeature([OrganizationSso]), OrganizationsModule],
  controllers: [SsoController, OrganizationSsoV1Controller],
  providers: [SsoConfigService, SsoService],
  exports: [SsoConfigService],
})
export class SsoModule {}
