import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../../config/config-slice';
import { PostgresThrottlerStorage, type RateWindow } from './postgres-throttler.storage';
import { rateLimitConfig, type RateLimitConfig } from './rate-limit.config';
import { rateLimitExceeded } from './rate-limit-response';
import { clientIp, MINUTE_MS } from './rate-limit.throttlers';

/**
 * Failed authentication per client IP (contract §11): past `RATE_LIMIT_AUTH_FAILURES_PER_MINUTE`
 * requests with a missing, invalid, revoked or expired credential in a minute, a client's
 * requests that need a credential answer 429 before any credential is looked up, so guessing
 * keys costs the database nothing. Counted in the shared counters, so every instance agrees.
 */
@Injectable()
export class AuthFailureLimiter {
  constructor(
    private readonly counters: PostgresThrottlerStorage,
    @InjectConfig(rateLimitConfig) private readonly config: RateLimitConfig,
  ) {}

  /** 429 when the client has used up its failures of this minute. */
  async assertBelowLimit(request: object): Promise<void> {
    const decision = await this.counters.peek(this.windowOf(request));
    if (!decision.allowed) throw rateLimitExceeded(decision);
  }

  /** Counts one failed authentication of the client. */
  async recordFailure(request: object): Promise<void> {
    await this.counters.hitAll([this.windowOf(request)]);
  }

  private windowOf(request: object): RateWindow {
    return {
      bucket: `auth-failures:${clientIp(request as Record<string, unknown>)}:m`,
      lengthMs: MINUTE_MS,
      limit: this.config.authFailuresPerMinute,
    };
  }
}
