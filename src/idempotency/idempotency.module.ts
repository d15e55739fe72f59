import { Module } from '@nestjs/common';
import { HttpErrorFilter } from '../common/filters/http-error.filter';
import { RouteIndex } from '../common/filters/route-index';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyKeySweeper } from './idempotency-key.sweeper';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * `Idempotency-Key` for the routes that create work (`@Idempotent()`): a module that uses the
 * decorator imports this one. The error filter is the API's own, to keep an error's answer as
 * the client receives it.
 */
@Module({
  providers: [
    IdempotencyRepository,
    IdempotencyInterceptor,
    IdempotencyKeySweeper,
    RouteIndex,
    HttpErrorFilter,
  ],
  exports: [IdempotencyInterceptor, IdempotencyRepository, HttpErrorFilter],
})
export class IdempotencyModule {}
