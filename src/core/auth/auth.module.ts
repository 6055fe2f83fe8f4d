import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { REDIS } from '../redis/redis.module';
import { AccessTokens } from './access-tokens';
import { AuthService } from './auth.service';
import { VerifiedClients } from './verified-clients';
import { AuthInvalidationBus } from './invalidation';
import { GlobalAuthGuard } from './auth.guard';
import { KeysService } from './keys.service';
import { RateLimitGuard, RedisThrottlerStorage } from './rate-limit';

@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, REDIS],
      useFactory: (config: AppConfig, redis: Redis) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: 1_000_000 }],
        storage: new RedisThrottlerStorage(redis, config),
      }),
    }),
  ],
  providers: [KeysService, AuthInvalidationBus, AccessTokens, VerifiedClients, AuthService, RedisThrottlerStorage, RateLimitGuard, { provide: APP_GUARD, useClass: GlobalAuthGuard }],
  exports: [KeysService, AccessTokens, VerifiedClients, AuthService, RateLimitGuard, ThrottlerModule],
})
export class AuthModule {}
