import { Global, Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { getOptionsToken, getStorageToken } from '@nestjs/throttler';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { ModelCallLimiter } from './model-call-limiter';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';
import { rateLimitConfig, type RateLimitConfig } from './rate-limit.config';
import { RateLimitCounterRepository } from './rate-limit-counter.repository';
import { rateLimitThrottlers } from './rate-limit.throttlers';

/** The throttler options and storage that `@nestjs/throttler`'s guard and decorators expect. */
@Global()
@Module({
  providers: [
    RateLimitCounterRepository,
    PostgresThrottlerStorage,
    AuthFailureLimiter,
    ModelCallLimiter,
    { provide: getStorageToken(), useExisting: PostgresThrottlerStorage },
    {
      provide: getOptionsToken(),
      inject: [rateLimitConfig.token, Reflector],
      useFactory: (config: RateLimitConfig, reflector: Reflector) => ({
        throttlers: rateLimitThrottlers(config, reflector),
      }),
    },
  ],
  exports: [getStorageToken(), getOptionsToken(), AuthFailureLimiter, ModelCallLimiter],
})
export class RateLimitModule {}
