import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { PAGE_DEFAULT } from '../common/dto/page-query.dto';
import { InjectConfig } from '../config/config-slice';
import { MetricsService } from '../metrics/metrics.service';
import type { ProviderUsage } from '../search/search-provider';
import type { AdminUsageQueryDto } from './dto/usage-query.dto';
import type { UsageKind } from './usage-event.entity';
import { monthRange } from './usage-month';
import {
  UsageRepository,
  type UsageRecord,
  type UsageTotals,
  type UserUsageTotals,
} from './usage.repository';
import { Clock } from '../common/clock/clock';
import { usageConfig, type UsageConfig } from './usage.config';

export interface MonthlyUsage extends UsageTotals {
  month: string;
  budget_usd: number | null;
}

/** `USER_MONTHLY_BUDGET_USD` reached: the 429 detail and a failed check's message. */
export function budgetReachedMessage(budgetUsd: number): string {
  return `Monthly budget of ${budgetUsd} USD reached`;
}

/** Provider usage per user and month, and the monthly budget that stops spending. */
@Injectable()
export class UsageService {
  constructor(
    @InjectConfig(usageConfig) private readonly config: UsageConfig,
    private readonly usage: UsageRepository,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
  ) {}

  /** `GET /api/v1/usage`: the caller's sums for a UTC month (default: this one). */
  async monthlyUsage(caller: AuthenticatedUser, month: string | undefined): Promise<MonthlyUsage> {
    const range = monthRange(month, this.clock.now());
    const totals = await this.usage.totalsFor(caller.id, range.from, range.to);
    return { month: range.month, ...totals, budget_usd: this.config.userMonthlyBudgetUsd };
  }

  /** `GET /admin/usage`: every user with usage that month, highest cost first. */
  listUsers(query: AdminUsageQueryDto): Promise<{ users: UserUsageTotals[]; total: number }> {
    const range = monthRange(query.month, this.clock.now());
    return this.usage.listUsers(
      range.from,
      range.to,
      query.limit ?? PAGE_DEFAULT,
      query.offset ?? 0,
    );
  }

  /** Suggest, preview and execute call this first: 429 once the month's cost reached the budget. */
  async assertWithinBudget(userId: string): Promise<void> {
    const budget = this.config.userMonthlyBudgetUsd;
    if (budget === null) return;
    const reached = await this.usersAtBudget([userId], this.clock.now());
    if (reached.has(userId)) {
      throw new HttpException(budgetReachedMessage(budget), HttpStatus.TOO_MANY_REQUESTS);
    }
  }

  /** The users among `userIds` who reached the budget this UTC month (none without a budget). */
  usersAtBudget(userIds: string[], now: Date, manager?: EntityManager): Promise<Set<string>> {
    const budget = this.config.userMonthlyBudgetUsd;
    if (budget === null) return Promise.resolve(new Set());
    return this.usage.usersAtBudget(userIds, monthRange(undefined, now).from, budget, manager);
  }

  /** Counts a suggestion or a preview (a check's usage is written with its result). */
  async recordCall(
    userId: string,
    kind: Exclude<UsageKind, 'check'>,
    usage: ProviderUsage,
  ): Promise<void> {
    await this.usage.record([{ userId, kind, executionId: null, usage }]);
    this.metrics.recordLlmCost(usage);
  }

  /** Checks' usage, in the caller's transaction (the check runner's result batch). */
  recordChecks(manager: EntityManager, records: UsageRecord[]): Promise<void> {
    return this.usage.record(records, manager);
  }
}
