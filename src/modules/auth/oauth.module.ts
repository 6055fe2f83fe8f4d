import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SsoModule } from '../sso/sso.module';
import { AccessTokenSigner } from './access-token-signer';
import { AuthorizeController } from './authorize.controller';
import { AuthorizeService } from './authorize.service';
import { ClientMetadataDocuments } from './client-metadata-documents';
import { ClientsController } from './clients.controller';
import { ClientsService } from './clients.service';
import { DiscoveryController } from './discovery.controller';
import { AuthCode, OAuthClient, RefreshToken, TokenFamily } from './oauth.entities';
import { RegisterController } from './register.controller';
import { RegisterService } from './register.service';
import { ScopesController } from './scopes.controller';
import { TokenController } from './token.controller';
import { TokenService } from './token.service';
import { V1FallbackController } from './v1-fallback.controller';
import { VerifiedClients } from './verified-clients';

@Module({
  imports: [TypeOrmModule.forFeature([OAuthClient, TokenFamily, RefreshToken, AuthCode]), SsoModule],
  controllers: [TokenController, ClientsController, ScopesController, DiscoveryController, RegisterController, AuthorizeController, V1FallbackController],
  providers: [AccessTokenSigner, VerifiedClients, ClientsService, TokenService, RegisterService, AuthorizeService, ClientMetadataDocuments],
  exports: [ClientsService, TokenService],
})
export class OAuthModule {}
