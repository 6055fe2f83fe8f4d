import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationOAuth } from '../organizations/organization-oauth';
import { insertBootstrapClient } from './bootstrap-client';
import { OAuthClient } from './oauth.entities';
import { revokeFamiliesOfSubject } from './subject-revocation';

/**
 * The OAuth writes organizations asks for (`OrganizationOAuth`, declared in modules/organizations):
 * global, imported once by the root (AppModule, the CLI's module). OAuthClient is registered here so
 * the CLI, which loads no OAuthModule, knows the entity.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OAuthClient])],
  providers: [{ provide: OrganizationOAuth, useValue: { insertBootstrapClient, revokeFamiliesOfSubject } satisfies OrganizationOAuth }],
  exports: [OrganizationOAuth],
})
export class OrganizationOAuthModule {}
