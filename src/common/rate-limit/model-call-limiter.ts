import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../../config/config-slice';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';
import { rateLimitConfig, type RateLimitConfig } from './rate-limit.config';
import { rateLimitExceeded } from './rate-limit-response';
import { modelCallWindow } from './rate-limit.throttlers';

/**
 * The model-call limit of a call that reaches a model-calling operation without its REST route's
 * request (an MCP tool call, whose own request counted in the caller's limits already): the call
 * counts in the user's `RATE_LIMIT_LLM_PER_HOUR` window, the one the `model` throttler counts an
 * `@LlmRateLimit()` route in, and past it answers that route's 429.
 */
@Injectable()
export class ModelCallLimiter {
  constructor(
    private readonly counters: PostgresThrottlerStorage,
    @InjectConfig(rateLimitConfig) private readonly config: RateLimitConfig,
  ) {}

  async hit(userId: string): Promise<void> {
    const decision = await this.counters.hitAll([modelCallWindow(userId, this.config.llmPerHour)]);
    if (!decision.allowed) throw rateLimitExceeded(decision);
  }
}
