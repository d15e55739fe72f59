import { HttpException, HttpStatus } from '@nestjs/common';
import type { RateDecision } from './postgres-throttler.storage';

/** The `detail` of every rate limit's 429. */
export const RATE_LIMIT_EXCEEDED = 'Rate limit exceeded';

/** The headers of a limited answer (docs/api.md, "Rate limits"). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetEpochSeconds),
  };
}

/** The headers of a 429: the limit's and `Retry-After`. */
function refusalHeaders(decision: RateDecision): Record<string, string> {
  return { ...rateLimitHeaders(decision), 'Retry-After': String(decision.retryAfterSeconds) };
}

/** The 429 of every limit: `{"detail": "Rate limit exceeded", "retry_after"}` and its headers. */
export function rateLimitExceeded(decision: RateDecision): HttpException {
  return new HttpException(
    {
      detail: RATE_LIMIT_EXCEEDED,
      retry_after: decision.retryAfterSeconds,
      headers: refusalHeaders(decision),
    },
    HttpStatus.TOO_MANY_REQUESTS,
  );
}

/**
 * The 429 of `RATE_LIMIT_PAGE_CHECKS_PER_HOUR`: `{"detail": "Page check limit of <N> per hour
 * reached"}` and the same headers (docs/api.md, "Rate limits").
 */
export function pageCheckLimitReached(decision: RateDecision): HttpException {
  return new HttpException(
    {
      detail: `Page check limit of ${decision.limit} per hour reached`,
      headers: refusalHeaders(decision),
    },
    HttpStatus.TOO_MANY_REQUESTS,
  );
}
