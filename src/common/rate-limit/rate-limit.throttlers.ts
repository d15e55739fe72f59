import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { ThrottlerOptions } from '@nestjs/throttler';
import { THROTTLER_TTL } from '@nestjs/throttler/dist/throttler.constants';
import type { Request } from 'express';
import type { RateLimitConfig } from './rate-limit.config';
import { routeAuthLevel, type AuthenticatedRequest } from '../decorators/auth.decorators';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Verification codes a user may ask for in an hour (README, "Notification channels"). */
const EMAIL_VERIFICATIONS_PER_HOUR = 5;

/**
 * The named throttlers of the service. A tracker is the name of the counter a request counts in
 * (`key:<id>:m`); an empty tracker means the throttler does not count that request.
 *  - `minute`, `hour`, `day`: per API key (per user for JWT callers); anonymous reads of routes
 *    that also serve signed-in callers count per IP in the minute window, so they are not free;
 *  - `model`: per user, on routes that call the model (`@LlmRateLimit()`);
 *  - `ip`: per client IP and endpoint, on routes that set it (`@IpRateLimit(name, n)`);
 *  - `email-verification`: 5 codes an hour per user (`@EmailVerificationRateLimit()`).
 */
export function rateLimitThrottlers(
  config: RateLimitConfig,
  reflector: Reflector,
): ThrottlerOptions[] {
  const { perMinute, perHour, perDay, llmPerHour } = config;
  const setOnRoute = (name: string, context: ExecutionContext) =>
    reflector.get<number | undefined>(THROTTLER_TTL + name, context.getHandler()) !== undefined;
  const anonymousRead = (context: ExecutionContext) =>
    routeAuthLevel(reflector, context.getHandler(), context.getClass()) === 'optional';
  /** Counts per user and hour (`<counter>:<user id>:h`), on the routes that set it. */
  const perUserHourly = (name: string, limit: number, counter: string): ThrottlerOptions => ({
    name,
    ttl: HOUR_MS,
    limit,
    skipIf: (context) => !setOnRoute(name, context),
    getTracker: (request) => {
      const user = (request as AuthenticatedRequest).user;
      return user ? `${counter}:${user.id}:h` : '';
    },
  });
  return [
    {
      name: 'minute',
      ttl: MINUTE_MS,
      limit: perMinute,
      getTracker: (request, context) =>
        callerCounter(request, 'm') ||
        (anonymousRead(context) ? `ip:anonymous:${clientIp(request)}:m` : ''),
    },
    {
      name: 'hour',
      ttl: HOUR_MS,
      limit: perHour,
      getTracker: (request) => callerCounter(request, 'h'),
    },
    {
      name: 'day',
      ttl: DAY_MS,
      limit: perDay,
      getTracker: (request) => callerCounter(request, 'd'),
    },
    perUserHourly('model', llmPerHour, 'llm'),
    perUserHourly('email-verification', EMAIL_VERIFICATIONS_PER_HOUR, 'verify-email'),
    // Limit and tracker come from the route (`@IpRateLimit`).
    {
      name: 'ip',
      ttl: MINUTE_MS,
      limit: perMinute,
      skipIf: (context) => !setOnRoute('ip', context),
    },
  ];
}

function callerCounter(request: Record<string, unknown>, window: string): string {
  const user = (request as unknown as AuthenticatedRequest).user;
  if (!user) return '';
  return `${user.apiKeyId ? `key:${user.apiKeyId}` : `user:${user.id}`}:${window}`;
}

/** Express's `request.ip`, which follows `TRUST_PROXY`. */
export function clientIp(request: Record<string, unknown>): string {
  const { ip, socket } = request as unknown as Request;
  return ip ?? socket.remoteAddress ?? 'unknown';
}
