import { applyDecorators } from '@nestjs/common';
import { Throttle } from '@nestjs/throttler';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { clientIp, HOUR_MS, MINUTE_MS } from './rate-limit.throttlers';

/**
 * Limits an endpoint per client IP (the anonymous public surfaces): the `ip` throttler, which
 * applies only where a route sets it; `name` gives the endpoint a counter of its own.
 */
export const IpRateLimit = (name: string, perMinute: number): MethodDecorator & ClassDecorator =>
  applyDecorators(
    Throttle({
      ip: {
        limit: perMinute,
        ttl: MINUTE_MS,
        getTracker: (request) => `ip:${name}:${clientIp(request)}:m`,
      },
    }),
    ApiErrors(429),
  );

/**
 * The route calls the model: besides the caller's limits it counts in the user's
 * `RATE_LIMIT_LLM_PER_HOUR` (the `model` throttler), shared by all the user's credentials.
 */
export const LlmRateLimit = (): MethodDecorator & ClassDecorator =>
  Throttle({ model: { ttl: HOUR_MS } });

/**
 * The route sends a test notification: it counts in the user's `RATE_LIMIT_TEST_SENDS_PER_HOUR`
 * (the `test-send` throttler), shared by all the user's credentials (docs/api.md, "Rate limits").
 */
export const TestSendRateLimit = (): MethodDecorator & ClassDecorator =>
  Throttle({ 'test-send': { ttl: HOUR_MS } });

/** A user may ask for at most 5 verification codes an hour. */
export const EmailVerificationRateLimit = (): MethodDecorator & ClassDecorator =>
  Throttle({ 'email-verification': { ttl: HOUR_MS } });
