import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import type { EntityManager } from 'typeorm';
import { PostgresThrottlerStorage } from '../common/rate-limit/postgres-throttler.storage';
import { rateLimitConfig, type RateLimitConfig } from '../common/rate-limit/rate-limit.config';
import {
  pageCheckLimitReached,
  RATE_LIMIT_EXCEEDED,
  rateLimitExceeded,
} from '../common/rate-limit/rate-limit-response';
import { modelCallWindow, pageCheckWindow } from '../common/rate-limit/rate-limit.throttlers';
import { InjectConfig } from '../config/config-slice';
import { UsageService } from './usage.service';

/**
 * The runs a user's requests make (docs/api.md, "Rate limits"): those `POST .../execute` asks for
 * (REST and MCP alike), and the model calls the service decides to make at once, without a model
 * route of their own: a new or resumed task's first check and `run_immediately`. A model call
 * counts in the user's `RATE_LIMIT_LLM_PER_HOUR` window, then against the monthly budget; an
 * execute of a task whose verdict needs no model counts in `RATE_LIMIT_PAGE_CHECKS_PER_HOUR`
 * instead.
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

  /**
   * Counts the run of an execute in `manager`'s transaction (a rolled-back request counts
   * nothing): 429 `Page check limit of <N> per hour reached` past the page checks of a task whose
   * verdict needs no model, else the 429 of the model-call limit or of the monthly budget.
   */
  async countExecute(manager: EntityManager, userId: string, needsModel: boolean): Promise<void> {
    if (!needsModel) {
      const window = pageCheckWindow(userId, this.limits.pageChecksPerHour);
      const decision = await this.counters.hitAll([window], manager);
      if (!decision.allowed) throw pageCheckLimitReached(decision);
      return;
    }
    const window = modelCallWindow(userId, this.limits.llmPerHour);
    const decision = await this.counters.hitAll([window], manager);
    if (!decision.allowed) throw rateLimitExceeded(decision);
    await this.usage.assertWithinBudget(userId, manager);
  }
}
