import { Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectConfig } from '../../config/config-slice';
import {
  PostgresThrottlerStorage,
  type RateDecision,
  type RateWindow,
} from './postgres-throttler.storage';
import { rateLimitConfig, type RateLimitConfig } from './rate-limit.config';
import { rateLimitExceeded } from './rate-limit-response';
import { clientIp, MINUTE_MS } from './rate-limit.throttlers';

/** How long an instance trusts its last reading of a client's failures, and for how many clients. */
const REMEMBER_MS = 1_000;
const REMEMBERED_CLIENTS = 10_000;

/**
 * Failed authentication per client IP (docs/api.md, "Rate limits"): past
 * `RATE_LIMIT_AUTH_FAILURES_PER_MINUTE` requests with a missing, invalid, revoked or expired
 * credential in a minute, a client's requests that need a credential answer 429 before any
 * credential is looked up, so guessing keys costs the database nothing. Counted in the shared
 * counters, so every instance agrees.
 *
 * An instance keeps what it last read or wrote of a client's counter for a second, so a client
 * with good credentials costs no extra statement per request. Its own failures update that
 * at once (the request after the last allowed failure gets 429 here); failures counted by other
 * instances reach it within the second.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly recent = new Map<string, { until: number; decision: RateDecision }>();

  constructor(
    private readonly counters: PostgresThrottlerStorage,
    @InjectConfig(rateLimitConfig) private readonly config: RateLimitConfig,
  ) {}

  /**
   * Runs `authenticate` for a request that needs a credential: a client past its failures of
   * the minute gets 429 before its credential is looked up, and a 401 of `authenticate` counts
   * as one more failure of the client.
   */
  async authenticateWithinLimit<T>(
    request: object,
    authenticate: () => T | Promise<T>,
  ): Promise<T> {
    await this.assertBelowLimit(request);
    try {
      return await authenticate();
    } catch (error) {
      if (error instanceof UnauthorizedException) await this.recordFailure(request);
      throw error;
    }
  }

  /** 429 when the client has used up its failures of this minute. */
  private async assertBelowLimit(request: object): Promise<void> {
    const window = this.windowOf(request);
    const cached = this.recent.get(window.bucket);
    const decision =
      cached && cached.until > Date.now()
        ? cached.decision
        : this.remember(window.bucket, await this.counters.peek(window));
    if (!decision.allowed) throw rateLimitExceeded(decision);
  }

  /** Counts one failed authentication of the client. */
  private async recordFailure(request: object): Promise<void> {
    const window = this.windowOf(request);
    const counted = await this.counters.hitAll([window]);
    // With no failure left, the client's next request is refused.
    this.remember(window.bucket, { ...counted, allowed: counted.allowed && counted.remaining > 0 });
  }

  private remember(bucket: string, decision: RateDecision): RateDecision {
    this.recent.delete(bucket);
    if (this.recent.size >= REMEMBERED_CLIENTS) {
      const oldest = this.recent.keys().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
    this.recent.set(bucket, { until: Date.now() + REMEMBER_MS, decision });
    return decision;
  }

  private windowOf(request: object): RateWindow {
    return {
      bucket: `auth-failures:${clientIp(request as Record<string, unknown>)}:m`,
      lengthMs: MINUTE_MS,
      limit: this.config.authFailuresPerMinute,
    };
  }
}
