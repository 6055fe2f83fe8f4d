import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { REDIS } from '../redis/redis.module';
import { AuthService } from './auth.service';
import { AuthInvalidationBus } from './invalidation';
import { GlobalAuthGuard } from './auth.guard';
import { AccessTokenStrategy } from './jwt.strategy';
import { KeysService } from './keys.service';
import { RateLimitGuard, RedisThrottlerStorage } from './rate-limit';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RevokedAccessToken } from './revoked-access-token.entity';
import { SigningKeyEntity } from './signing-key.entity';

/**
 * What every module leans on to authenticate: the access-token strategy (passport-jwt, registered
 * as 'jwt' through PassportModule), the signing keys it verifies with, AuthService and the global
 * guard, the rate limits. The OAuth server itself (token, revoke, register, authorize, clients,
 * scopes, discovery) is modules/auth.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([RevokedAccessToken, SigningKeyEntity]),
    PassportModule.register({ defaultStrategy: 'jwt', session: false }),
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, REDIS],
      useFactory: (config: AppConfig, redis: Redis) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: 1_000_000 }],
        storage: new RedisThrottlerStorage(redis, config),
      }),
    }),
  ],
  providers: [KeysService, AuthInvalidationBus, AccessTokenStrategy, AuthService, RedisThrottlerStorage, RateLimitGuard, { provide: APP_GUARD, useClass: GlobalAuthGuard }],
  exports: [PassportModule, KeysService, AuthInvalidationBus, AccessTokenStrategy, AuthService, RateLimitGuard, ThrottlerModule],
})
export class AuthModule {}
