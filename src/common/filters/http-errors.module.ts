import { Module } from '@nestjs/common';
import { HttpErrorFilter } from './http-error.filter';
import { RouteIndex } from './route-index';

/**
 * The API's error filter, one instance for the application: the global filter, and what the
 * idempotency interceptor and MCP use to write an error's answer as the client receives it.
 */
@Module({
  providers: [RouteIndex, HttpErrorFilter],
  exports: [HttpErrorFilter],
})
export class HttpErrorsModule {}
