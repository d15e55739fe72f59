import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { PAGE_DEFAULT } from '../common/dto/page-query.dto';
import { InjectConfig } from '../config/config-slice';
import { MetricsService } from '../metrics/metrics.service';
import { TransactionRunner } from '../database/transaction-runner';
import { worstCaseCheckMs } from '../search/provider-call-budget';
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

function budgetReached(detail: string): HttpException {
  return new HttpException(detail, HttpStatus.TOO_MANY_REQUESTS);
}

/**
 * How long a reservation counts when its call never released it (the process died): the
 * longest a provider call can take, with room for recording it.
 */
const RESERVATION_LIFETIME_SECONDS = Math.ceil(worstCaseCheckMs() / 1000) + 120;

/** A check's place under its user's budget: a reservation, or the budget reached. */
export interface BudgetHold {
  reached: boolean;
  /** Null without a budget, or when it was reached. */
  reservationId: string | null;
}

/**
 * Provider usage per user and month, and the monthly budget that stops spending. Each call
 * reserves its place under the budget before it is made, in one transaction holding the user's
 * row (docs/api.md, "Usage"): concurrent calls at the limit then overshoot it by at most one
 * call each, and the reservation ends when the call's usage is recorded.
 */
@Injectable()
export class UsageService {
  constructor(
    @InjectConfig(usageConfig) private readonly config: UsageConfig,
    private readonly usage: UsageRepository,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
    private readonly transactions: TransactionRunner,
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

  /**
   * `POST .../execute` of a task that calls the model calls this (in its transaction, `manager`):
   * 429 once the month's cost, with the calls under way, reached the budget. The run's own call
   * reserves its place when a worker claims it.
   */
  async assertWithinBudget(userId: string, manager: EntityManager): Promise<void> {
    const reached = await this.budgetReachedDetail(userId, manager);
    if (reached !== null) throw budgetReached(reached);
  }

  /**
   * The 429 detail of `assertWithinBudget` once the month's cost, with the calls under way,
   * reached the budget; null under it or without one. Read in `manager`'s transaction if given.
   */
  async budgetReachedDetail(userId: string, manager?: EntityManager): Promise<string | null> {
    const budget = this.config.userMonthlyBudgetUsd;
    if (budget === null) return null;
    const reached = await this.usage.usersAtBudget(
      [userId],
      monthRange(undefined, this.clock.now()).from,
      budget,
      RESERVATION_LIFETIME_SECONDS,
      manager,
    );
    return reached.has(userId) ? budgetReachedMessage(budget) : null;
  }

  /**
   * Suggest and preview: reserves the call under the user's budget (429 once it is reached,
   * the calls under way included). Returns the reservation to hand to `recordCall` or
   * `releaseCall`; null without a budget.
   */
  async reserveCall(userId: string): Promise<string | null> {
    const budget = this.config.userMonthlyBudgetUsd;
    if (budget === null) return null;
    const [hold] = await this.reserveCalls([userId]);
    if (hold.reached) throw budgetReached(budgetReachedMessage(budget));
    return hold.reservationId;
  }

  /**
   * Reserves one call per entry of `userIds` (a user may appear more than once), in one
   * transaction that holds the users' rows in id order. Without a budget nothing is reserved.
   */
  async reserveCalls(userIds: string[]): Promise<BudgetHold[]> {
    const budget = this.config.userMonthlyBudgetUsd;
    if (budget === null || userIds.length === 0)
      return userIds.map(() => ({ reached: false, reservationId: null }));
    const from = monthRange(undefined, this.clock.now()).from;
    return this.transactions.run(async (manager) => {
      await this.usage.lockUsers(manager, userIds);
      const holds: BudgetHold[] = [];
      for (const userId of userIds) {
        const reservationId = await this.usage.reserve(
          manager,
          userId,
          from,
          budget,
          RESERVATION_LIFETIME_SECONDS,
        );
        holds.push({ reached: reservationId === null, reservationId });
      }
      return holds;
    });
  }

  /** Ends reservations whose calls made no usage to record; in the caller's transaction if any. */
  async releaseCalls(reservationIds: Array<string | null>, manager?: EntityManager): Promise<void> {
    const ids = reservationIds.filter((id): id is string => id !== null);
    await this.usage.release(ids, manager);
  }

  /** Counts a suggestion or a preview and ends its reservation, together. */
  async recordCall(
    userId: string,
    kind: Exclude<UsageKind, 'check'>,
    usage: ProviderUsage,
    reservationId: string | null = null,
  ): Promise<void> {
    await this.transactions.run(async (manager) => {
      await this.usage.record([{ userId, kind, executionId: null, usage }], manager);
      await this.releaseCalls([reservationId], manager);
    });
    this.metrics.recordLlmCost(usage);
  }

  /**
   * Checks' usage, in the caller's transaction (the check runner's result batch, which ends
   * their reservations with `releaseCalls`).
   */
  recordChecks(manager: EntityManager, records: UsageRecord[]): Promise<void> {
    return this.usage.record(records, manager);
  }
}
