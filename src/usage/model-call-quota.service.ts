import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import type { EntityManager } from 'typeorm';
import { PostgresThrottlerStorage } from '../common/rate-limit/postgres-throttler.storage';
import { rateLimitConfig, type RateLimitConfig } from '../common/rate-limit/rate-limit.config';
import { RATE_LIMIT_EXCEEDED } from '../common/rate-limit/rate-limit-response';
import { modelCallWindow } from '../common/rate-limit/rate-limit.throttlers';
import { InjectConfig } from '../config/config-slice';
import { UsageService } from './usage.service';

/**
 * The model calls the service decides to make at once for a user, without a model route of its
 * own: a new or resumed task's first check and `run_immediately` (docs/api.md, "Rate limits").
 * Each counts as `POST .../execute` does: in the user's `RATE_LIMIT_LLM_PER_HOUR` window, then
 * against the monthly budget, answering the detail of the 429 execute would answer.
 */
@Injectable()
export class ModelCallQuotaService {
  constructor(
    @InjectConfig(rateLimitConfig) private readonly limits: RateLimitConfig,
    @InjectThrottlerStorage() private readonly counters: PostgresThrottlerStorage,
    private readonly usage: UsageService,
  ) {}

  /**
   * Counts one call of the user in `manager`'s transaction, so a rolled-back request counts
   * nothing. Answers null when the call may be made now, or the 429 detail (`Rate limit
   * exceeded`, `Monthly budget of <X> USD reached`) when it may not.
   */
  async countCall(manager: EntityManager, userId: string): Promise<string | null> {
    const window = modelCallWindow(userId, this.limits.llmPerHour);
    if (!(await this.counters.hitAll([window], manager)).allowed) return RATE_LIMIT_EXCEEDED;
    return this.usage.budgetReachedDetail(userId, manager);
  }
}
