import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { Clock } from '../../common/clock/clock';
import { InjectConfig } from '../../config/config-slice';
import { verdictNeedsModel } from '../../pages/rules/page-rule';
import type { PageSnapshot } from '../../pages/page.types';
import { SearchProvider, type CheckResult, type PromptPage } from '../../search/search-provider';
import type { OutputValues } from '../../search/output-schema';
import type { GroundingSource } from '../../search/search.types';
import { usageConfig, type UsageConfig } from '../../usage/usage.config';
import { UsageService } from '../../usage/usage.service';
import { WORKER_STALE_AFTER_MS } from '../../scheduler/worker-heartbeat.service';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import {
  BudgetReachedError,
  CheckError,
  CheckErrorCode,
  INTERRUPTED_MESSAGE,
} from '../decisions/check-errors';
import type { CheckAnswer } from '../decisions/check-outcome';
import { CheckRunRepository } from '../check-run.repository';
import { CheckPageReader, type ReadPages } from './check-page.reader';
import { CHECK_LOG_CONTEXT, type ClaimedCheck, type FinishedCheck } from './claimed-check';

/** How much sooner than a sweeper could take a check the database is asked whether it did. */
const VOUCHED_MARGIN_MS = 5_000;

/** The pages a page check shows the model, and the sources they stand for. */
interface PagesShown {
  pages: PromptPage[];
  sources: GroundingSource[];
  /** The values the pages read, which are the execution's (null: the pages read none). */
  values: OutputValues | null;
}

/**
 * The provider call of claimed checks, under their owners' monthly budget: one call per check,
 * outside any transaction. A task with pages reads them first (`CheckPageReader`) and calls the
 * model only when they ask for it. Whatever goes wrong is the check's outcome; nothing here throws.
 */
@Injectable()
export class CheckCaller {
  constructor(
    private readonly usage: UsageService,
    @InjectConfig(usageConfig) private readonly usageSettings: UsageConfig,
    private readonly provider: SearchProvider,
    private readonly clock: Clock,
    private readonly pageReader: CheckPageReader,
    @InjectPinoLogger(CHECK_LOG_CONTEXT) private readonly logger: PinoLogger,
    private readonly executions: CheckRunRepository,
    private readonly worker: WorkerIdentity,
  ) {}

  /**
   * Reserves each claimed check's call under its owner's monthly budget, the budget check and
   * the reservation in one step (docs/api.md, "Usage"); a check whose owner reached it calls no
   * provider. Checks with a page rule call none and reserve nothing. When the reservations
   * cannot be written, the checks are retried later: the error is returned, to be their outcome.
   */
  async reserveCalls(claimed: ClaimedCheck[]): Promise<Error | undefined> {
    const checks = claimed.filter(verdictNeedsModel);
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

  /**
   * The check's call, or `unreserved` (the error of its batch's reservation) without a call. A
   * task with pages reads them first, against their last good fetches (`snapshots`). A check
   * whose worker went silent on its last attempt is not run: it fails as interrupted
   * (docs/architecture.md, "Nothing is lost when a process dies").
   */
  async call(
    check: ClaimedCheck,
    unreserved?: Error,
    snapshots: ReadonlyMap<string, PageSnapshot> = new Map(),
  ): Promise<FinishedCheck> {
    const provider = this.provider.name;
    if (check.interrupted) {
      const outcome = new CheckError(INTERRUPTED_MESSAGE, CheckErrorCode.INTERRUPTED);
      return { check, outcome, provider, pageResults: null };
    }
    if (check.pages === null) {
      const outcome = unreserved ?? (await this.callProvider(check));
      return { check, outcome, provider, pageResults: null };
    }
    let read: ReadPages;
    try {
      read = await this.pageReader.read(check, check.pages, snapshots);
    } catch (error) {
      return { check, outcome: asError(error), provider, pageResults: null };
    }
    const { results, decision } = read;
    const finished = (outcome: CheckAnswer | Error): FinishedCheck => ({
      check,
      outcome,
      provider,
      pageResults: results,
    });
    if (decision.kind === 'failed') {
      return finished(new CheckError(decision.message, decision.code));
    }
    if (decision.kind === 'answered') return finished(decision.answer);
    if (!(await this.stillRuns(check))) {
      return finished(new CheckError('Taken over by a newer attempt', CheckErrorCode.TAKEN_OVER));
    }
    return finished(unreserved ?? (await this.callProvider(check, decision)));
  }

  /**
   * Whether the check is still this attempt's, asked before the model call that follows its
   * pages: reading them can outlast the time after which a silent worker is taken for dead, and
   * an attempt whose check went to another pays for no call whose answer would be dropped. Until
   * that time has passed since the worker's last heartbeat before the claim (less a margin for
   * the database's clock), no sweeper can have taken the check, and the database is not asked.
   * When the database cannot say, the check goes on: its result is written only if it is still
   * its.
   */
  private async stillRuns(check: ClaimedCheck): Promise<boolean> {
    if (performance.now() - check.vouchedAt < WORKER_STALE_AFTER_MS - VOUCHED_MARGIN_MS)
      return true;
    return this.executions
      .runsAs(check.executionId, check.attempt, this.worker.id)
      .catch(() => true);
  }

  /** One model call: a web search, or with a page task's pages (and those pages its sources). */
  private async callProvider(
    check: ClaimedCheck,
    shown?: PagesShown,
  ): Promise<CheckResult | Error> {
    const budget = this.usageSettings.userMonthlyBudgetUsd;
    if (check.budgetReached && budget !== null) return new BudgetReachedError(budget);
    try {
      const result = await this.provider.check({
        searchQuery: check.searchQuery,
        conditionDescription: check.conditionDescription,
        previousState: check.previousState,
        previousCheckAt: check.previousCheckAt,
        now: this.clock.now(),
        outputSchema: check.outputSchema,
        ...(shown ? { pages: shown.pages } : {}),
      });
      return shown
        ? { ...result, groundingSources: shown.sources, values: shown.values ?? result.values }
        : result;
    } catch (error) {
      return asError(error);
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
