import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { Clock } from '../../common/clock/clock';
import { InjectConfig } from '../../config/config-slice';
import { SearchProvider, type CheckResult } from '../../search/search-provider';
import { usageConfig, type UsageConfig } from '../../usage/usage.config';
import { UsageService } from '../../usage/usage.service';
import { BudgetReachedError, CheckError, CheckErrorCode } from '../decisions/check-errors';
import { CHECK_LOG_CONTEXT, type ClaimedCheck, type FinishedCheck } from './claimed-check';

/**
 * The provider call of claimed checks, under their owners' monthly budget: one call per check,
 * outside any transaction. Whatever goes wrong is the check's outcome; nothing here throws.
 */
@Injectable()
export class CheckCaller {
  constructor(
    private readonly usage: UsageService,
    @InjectConfig(usageConfig) private readonly usageSettings: UsageConfig,
    private readonly provider: SearchProvider,
    private readonly clock: Clock,
    @InjectPinoLogger(CHECK_LOG_CONTEXT) private readonly logger: PinoLogger,
  ) {}

  /**
   * Reserves each claimed check's call under its owner's monthly budget, the budget check and
   * the reservation in one step (docs/api.md, "Usage"); a check whose owner reached it calls no
   * provider. When the reservations cannot be written, the checks are retried later: the error
   * is returned, to be their outcome.
   */
  async reserveCalls(checks: ClaimedCheck[]): Promise<Error | undefined> {
    if (checks.length === 0 || this.usageSettings.userMonthlyBudgetUsd === null) return undefined;
    try {
      const holds = await this.usage.reserveCalls(checks.map((check) => check.userId));
      checks.forEach((check, index) => {
        check.budgetReached = holds[index].reached;
        check.reservationId = holds[index].reservationId;
      });
      return undefined;
    } catch (error) {
      this.logger.warn({ err: error }, 'Reserving budget for checks failed');
      return new CheckError(
        'The monthly budget could not be checked',
        CheckErrorCode.BUDGET_UNAVAILABLE,
      );
    }
  }

  /** The check's call, or `unreserved` (the error of its batch's reservation) without a call. */
  async call(check: ClaimedCheck, unreserved?: Error): Promise<FinishedCheck> {
    return {
      check,
      outcome: unreserved ?? (await this.callProvider(check)),
      provider: this.provider.name,
    };
  }

  private async callProvider(check: ClaimedCheck): Promise<CheckResult | Error> {
    const budget = this.usageSettings.userMonthlyBudgetUsd;
    if (check.budgetReached && budget !== null) return new BudgetReachedError(budget);
    try {
      return await this.provider.check({
        searchQuery: check.searchQuery,
        conditionDescription: check.conditionDescription,
        previousState: check.previousState,
        previousCheckAt: check.previousCheckAt,
        now: this.clock.now(),
        outputSchema: check.outputSchema,
      });
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }
}
