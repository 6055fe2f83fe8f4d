import { Global, Module } from '@nestjs/common';
import { DryRuns } from '../dry-run/dry-run';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyService } from './idempotency.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKey } from './idempotency-key.entity';

/**
 * Idempotency-Key on the writes of /v1 and /v2 (API process only). The interceptor is put on every
 * write handler by applyIdempotencyToWrites (wire.ts, called by AppModule.forRoot) and instantiated
 * in each controller's module, hence global; the onSend hook of app.factory.ts stores the answers.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKey])],
  providers: [IdempotencyService, IdempotencyInterceptor, DryRuns],
  exports: [IdempotencyService, IdempotencyInterceptor, DryRuns],
})
export class IdempotencyModule {}
