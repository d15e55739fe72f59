import { Module } from '@nestjs/common';
import { HttpErrorsModule } from '../common/filters/http-errors.module';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyKeySweeper } from './idempotency-key.sweeper';
import { IdempotencyScope } from './idempotency-scope';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * `Idempotency-Key` for the routes that create work (`@Idempotent()`): a module that uses the
 * decorator imports this one, and its services keep their answers through `IdempotencyScope`.
 * The error filter is the API's own, to keep an error's answer as the client receives it.
 */
@Module({
  imports: [HttpErrorsModule],
  providers: [
    IdempotencyRepository,
    IdempotencyScope,
    IdempotencyInterceptor,
    IdempotencyKeySweeper,
  ],
  // `@UseInterceptors` builds the interceptor in the controller's module: what it needs goes there.
  exports: [IdempotencyInterceptor, IdempotencyRepository, IdempotencyScope, HttpErrorsModule],
})
export class IdempotencyModule {}
