import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { EntityManager } from 'typeorm';
import { BatchCommitter } from '../../common/batching/batch-committer';
import { LogContext } from '../../common/logging/log-context';
import { isDatabaseUnavailable, isLockConflict } from '../../database/database-errors';
import { retryWhileDatabaseUnavailable } from '../../database/database-outage';
import { TransactionRunner } from '../../database/transaction-runner';
import { CHECK_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import { CheckError, CheckErrorCode } from '../decisions/check-errors';
import { CheckRunRepository } from '../check-run.repository';
import { CheckOutcomeWriter } from './check-outcome.writer';
import {
  CHECK_LOG_CONTEXT,
  checkLogFields,
  checkReleaseDeadline,
  type ClaimedCheck,
  type FinishedCheck,
} from './claimed-check';

/** A check whose result the database refused (the error itself is logged). */
export const RESULT_NOT_STORED = "The check's result could not be stored (database error)";

/** Stop waiting for the database this long before a check's job expires. */
const RELEASE_MARGIN_MS = 10_000;

const MAX_FINISH_BATCH = 100;
/** Result batches committing at once; each locks its tasks in id order, so they cannot deadlock. */
const FINISH_PARALLELISM = 3;
/**
 * A result's transaction runs this many times when it loses a lock conflict, and the whole
 * submission is repeated this many times more: a paid answer is not given up for a conflict.
 */
const FINISH_TRIES = 6;
const FINISH_ROUNDS = 3;
/**
 * Under a steady flow of checks (pages read on threads end one by one), a result waits up to this
 * long after the last batch, or until FINISH_ENOUGH results wait, for others to share its
 * transaction: a quarter of a second of a check's time at most, for several times fewer
 * statements per check (BENCHMARKS.md, "Page monitors: changed pages against the build before
 * the reading threads").
 */
const FINISH_GATHER_MS = 250;
/**
 * Results waiting that start a batch at once, as do the last results of a burst, once no check
 * of this instance is still running. A quarter of a batch rather than a tenth: with ten, changed
 * pages' results committed ten at a time (BENCHMARKS.md, "Page monitors: results a quarter of a
 * batch at a time").
 */
const FINISH_ENOUGH = MAX_FINISH_BATCH / 4;

/**
 * Records what checks came to. Outcomes submitted together commit together, in batches
 * (`CheckOutcomeWriter`), so the database work per check stays small under load; an outcome the
 * database refuses still ends its check, or hands the check back to the queue.
 */
@Injectable()
export class CheckOutcomeRecorder {
  private readonly committer: BatchCommitter<FinishedCheck>;
  /** Checks of this instance being run or recorded: `record` calls not yet returned. */
  private checksUnderWay = 0;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly writer: CheckOutcomeWriter,
    private readonly executions: CheckRunRepository,
    private readonly queue: JobQueueService,
    private readonly worker: WorkerIdentity,
    @InjectPinoLogger(CHECK_LOG_CONTEXT) private readonly logger: PinoLogger,
    private readonly logContext: LogContext,
  ) {
    this.committer = new BatchCommitter(
      transactions,
      (manager, items) => this.commit(manager, items),
      {
        maxBatch: MAX_FINISH_BATCH,
        parallel: FINISH_PARALLELISM,
        tries: FINISH_TRIES,
        gatherMs: FINISH_GATHER_MS,
        enough: FINISH_ENOUGH,
        underWay: () => this.checksUnderWay,
      },
    );
  }

  /**
   * Records a check's outcome once `running` (the check under way) settles. Counted from the call,
   * so a batch's checks handed over together are all under way before any ends: a result waits
   * for others to share its transaction only while some check is still running. The commit
   * retries lost lock conflicts, and the whole submission is repeated a few times more: a
   * conflict never turns a paid answer into a failed check.
   * Another refusal still ends the execution, as a failure. If even that cannot be written, the
   * execution goes back to `retrying` and its job to the queue, so nothing stays `running`.
   * Called in the check's log context: each line carries its ids.
   */
  async record(running: Promise<FinishedCheck>): Promise<void> {
    this.checksUnderWay += 1;
    try {
      await this.recordOutcome(await running);
    } finally {
      this.checksUnderWay -= 1;
    }
  }

  private async recordOutcome(finished: FinishedCheck): Promise<void> {
    const refused = await this.submitInRounds(finished);
    if (refused === null) return;
    if (isDatabaseUnavailable(refused.error)) {
      this.logger.error(
        { err: refused.error },
        "A check's result could not be stored before its job expires",
      );
      return;
    }
    let lastError = refused.error;
    if (!isLockConflict(lastError)) {
      this.logger.error(
        { err: lastError },
        "A check's result could not be stored; the check is failed",
      );
      try {
        // error_message is the owner's to read: the database's words go to the log only.
        await this.committer.submit({
          ...finished,
          outcome: new CheckError(RESULT_NOT_STORED, CheckErrorCode.RESULT_NOT_STORED),
        });
        return;
      } catch (error) {
        lastError = error;
      }
    }
    this.logger.error(
      { err: lastError },
      "A check's result could not be stored; the check is retried",
    );
    await this.handBack(finished.check);
  }

  /**
   * Submits the outcome, again while it loses lock conflicts. A paid answer that meets a database
   * outage is recorded once the database answers, while the job is still this worker's. Returns
   * null once it is stored, or the error that stopped it.
   */
  private async submitInRounds(finished: FinishedCheck): Promise<{ error: unknown } | null> {
    let refused: { error: unknown } | null = null;
    for (let round = 1; round <= FINISH_ROUNDS; round++) {
      try {
        await retryWhileDatabaseUnavailable(() => this.committer.submit(finished), {
          until: checkReleaseDeadline([finished.check.job]) - RELEASE_MARGIN_MS,
        });
        return null;
      } catch (error) {
        refused = { error };
        if (!isLockConflict(error)) break;
      }
    }
    return refused;
  }

  /** One batch's transaction; each failed check is logged in its own log context. */
  private async commit(manager: EntityManager, items: FinishedCheck[]): Promise<void> {
    const failures = await this.writer.write(manager, items);
    for (const { check, error } of failures) {
      this.logContext.run(checkLogFields(check), () =>
        this.logger.warn({ error: error.message }, 'Check failed'),
      );
    }
  }

  /** Puts the execution back to `retrying` and its job back to the queue. */
  private async handBack(check: ClaimedCheck): Promise<void> {
    await this.transactions
      .run(async (manager) => {
        const marked = await this.executions.markRetrying(
          manager,
          [
            {
              executionId: check.executionId,
              attempt: check.attempt,
              message: 'The result could not be stored',
            },
          ],
          this.worker.id,
        );
        if (marked.size > 0)
          await this.queue.fail(CHECK_QUEUE, check.job.id, 'result not stored', manager);
      })
      .catch(() => undefined);
  }
}
