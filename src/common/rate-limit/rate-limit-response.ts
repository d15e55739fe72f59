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

/** The 429 of every limit: `{"detail": "Rate limit exceeded", "retry_after"}` and its headers. */
export function rateLimitExceeded(decision: RateDecision): HttpException {
  return new HttpException(
    {
      detail: RATE_LIMIT_EXCEEDED,
      retry_after: decision.retryAfterSeconds,
      headers: {
        ...rateLimitHeaders(decision),
        'Retry-After': String(decision.retryAfterSeconds),
      },
    },
    HttpStatus.TOO_MANY_REQUESTS,
  );
}
