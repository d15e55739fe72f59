import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { ThrottlerOptions } from '@nestjs/throttler';
import { THROTTLER_TTL } from '@nestjs/throttler/dist/throttler.constants';
import type { Request } from 'express';
import { clientNetwork } from '../http/client-network';
import type { RateWindow } from './postgres-throttler.storage';
import type { RateLimitConfig } from './rate-limit.config';
import { routeAuthLevel, type AuthenticatedRequest } from '../decorators/auth.decorators';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Verification codes a user may ask for in an hour (README, "Notification channels"). */
const EMAIL_VERIFICATIONS_PER_HOUR = 5;

/** The counter of a user's model calls (`RATE_LIMIT_LLM_PER_HOUR`). */
const MODEL_CALLS = 'llm';
/** The counter of a user's page checks asked for by execute (`RATE_LIMIT_PAGE_CHECKS_PER_HOUR`). */
const PAGE_CHECKS = 'page-check';

/**
 * The named throttlers of the service. A tracker is the name of the counter a request counts in
 * (`key:<id>:m`); an empty tracker means the throttler does not count that request.
 *  - `minute`, `hour`, `day`: per API key (per user for JWT callers); anonymous reads of routes
 *    that also serve signed-in callers count per IP in the minute window, so they are not free;
 *  - `model`: per user, on routes that call the model (`@LlmRateLimit()`);
 *  - `test-send`: per user, on the test-send route (`@TestSendRateLimit()`): a test send is a
 *    request to a host and port the user chose, so it is not left to the general limits alone;
 *  - `ip`: per client IP and endpoint, on routes that set it (`@IpRateLimit(name, n)`);
 *  - `email-verification`: 5 codes an hour per user (`@EmailVerificationRateLimit()`).
 */
export function rateLimitThrottlers(
  config: RateLimitConfig,
  reflector: Reflector,
): ThrottlerOptions[] {
  const { perMinute, perHour, perDay, llmPerHour, testSendsPerHour } = config;
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
      return user ? userHourlyBucket(counter, user.id) : '';
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
    perUserHourly('model', llmPerHour, MODEL_CALLS),
    perUserHourly('test-send', testSendsPerHour, 'test-send'),
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

/** A user's counter in an hourly per-user limit: `<counter>:<user id>:h`. */
function userHourlyBucket(counter: string, userId: string): string {
  return `${counter}:${userId}:h`;
}

/**
 * The window of a user's model calls, the one the `model` throttler counts `@LlmRateLimit()`
 * routes in: for the calls the service makes at once on the user's behalf (a new or resumed
 * task's first check, `run_immediately`; docs/api.md, "Rate limits").
 */
export function modelCallWindow(userId: string, perHour: number): RateWindow {
  return { bucket: userHourlyBucket(MODEL_CALLS, userId), lengthMs: HOUR_MS, limit: perHour };
}

/**
 * The window of a user's executes of tasks whose verdict needs no model, which count here instead
 * of in the model calls (docs/api.md, "Rate limits").
 */
export function pageCheckWindow(userId: string, perHour: number): RateWindow {
  return { bucket: userHourlyBucket(PAGE_CHECKS, userId), lengthMs: HOUR_MS, limit: perHour };
}

function callerCounter(request: Record<string, unknown>, window: string): string {
  const user = (request as unknown as AuthenticatedRequest).user;
  if (!user) return '';
  return `${user.apiKeyId ? `key:${user.apiKeyId}` : `user:${user.id}`}:${window}`;
}

/**
 * The client of a request as per-IP limits count it: Express's `request.ip` (which follows
 * `TRUST_PROXY`), an IPv6 client by its /64 (`clientNetwork`).
 */
export function clientIp(request: Record<string, unknown>): string {
  const { ip, socket } = request as unknown as Request;
  return clientNetwork(ip ?? socket.remoteAddress ?? 'unknown');
}
