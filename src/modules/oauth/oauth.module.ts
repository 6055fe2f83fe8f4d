import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsController } from './clients.controller';
import { ClientsService } from './clients.service';
import { DiscoveryController } from './discovery.controller';
import { AuthCode, OAuthClient, RefreshToken, TokenFamily } from './oauth.entities';
import { ScopesController } from './scopes.controller';
import { TokenController } from './token.controller';
import { TokenService } from './token.service';

@Module({
  imports: [TypeOrmModule.forFeature([OAuthClient, TokenFamily, RefreshToken, AuthCode])],
  controllers: [TokenController, ClientsController, ScopesController, DiscoveryController],
  providers: [ClientsService, TokenService],
  exports: [ClientsService, TokenService],
})
export class OAuthModule {}
