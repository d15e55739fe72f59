import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { EntityManager } from 'typeorm';
import { LogContext, type CheckLogFields } from '../../common/logging/log-context';
import { InjectConfig } from '../../config/config-slice';
import { MetricsService, type CheckMetric } from '../../metrics/metrics.service';
import { deliveryJobId } from '../../notifications/delivery/delivery-job';
import {
  CHECK_JOB_EXPIRY_SECONDS,
  CHECK_QUEUE,
  JobQueueService,
  type CheckJobData,
  type QueueJob,
} from '../../scheduler/job-queue.service';
import { schedulerConfig, type SchedulerConfig } from '../../scheduler/scheduler.config';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import {
  ProviderError,
  SearchProvider,
  type CheckResult,
  type ProviderUsage,
} from '../../search/search-provider';
import { outputSchemaKey, type OutputSchema } from '../../search/output-schema';
import { usageConfig, type UsageConfig } from '../../usage/usage.config';
import { UsageService } from '../../usage/usage.service';
import { Clock } from '../../common/clock/clock';
import { BatchCommitter } from '../../common/batching/batch-committer';
import { isDatabaseUnavailable, isLockConflict } from '../../database/database-errors';
import { retryWhileDatabaseUnavailable } from '../../database/database-outage';
import { TransactionRunner } from '../../database/transaction-runner';
import {
  BudgetReachedError,
  NO_HISTORY,
  planCheckOutcome,
  type FinalPlan,
  type TaskOutcome,
} from '../decisions/check-outcome';
import { CheckScheduleRepository } from './check-schedule.repository';
import { executionsConfig, type ExecutionsConfig } from '../executions.config';
import { ExecutionRepository, type ClaimedRun } from '../execution.repository';

/** A job whose execution is now `running` on this worker. */
interface ClaimedCheck {
  job: QueueJob<CheckJobData>;
  executionId: string;
  taskId: string;
  userId: string;
  /** The owner reached the monthly budget when the check's call was to be reserved. */
  budgetReached: boolean;
  /** The call's place under its owner's budget, ended with its result. */
  reservationId: string | null;
  searchQuery: string;
  conditionDescription: string;
  previousState: Record<string, unknown> | null;
  previousCheckAt: Date | null;
  /** The task's `output_schema` when the check was claimed: the one its values are read with. */
  outputSchema: OutputSchema | null;
  /** Set when its outcome is written: how the check ended, for the metrics. */
  ended?: Omit<CheckMetric, 'durationSeconds'>;
}

interface FinishedCheck {
  check: ClaimedCheck;
  outcome: CheckResult | Error;
}

/** What a claim found: checks now running here, and jobs whose task another transaction holds. */
interface ClaimRound {
  claimed: ClaimedCheck[];
  busy: Array<QueueJob<CheckJobData>>;
}

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
 * A claim skips tasks another transaction holds (a request changing the task, a result being
 * recorded) and comes back for them after a short pause; the last round waits for their locks.
 */
const CLAIM_ROUNDS = 4;
const CLAIM_PAUSE_MS = 25;

/**
 * Runs check jobs (README, "Architecture"): claim (execution `running`), one
 * provider call outside any transaction, then one transaction that records the result, moves the
 * task on, schedules the next check, queues the deliveries and completes the job. Claims and
 * results are written in batches, so the database work per check stays small under load.
 */
@Injectable()
export class CheckRunnerService {
  private readonly finisher: BatchCommitter<FinishedCheck>;

  constructor(
    private readonly transactions: TransactionRunner,
    @InjectConfig(usageConfig) private readonly usageSettings: UsageConfig,
    @InjectConfig(executionsConfig) private readonly executionSettings: ExecutionsConfig,
    @InjectConfig(schedulerConfig) private readonly schedulerSettings: SchedulerConfig,
    private readonly queue: JobQueueService,
    private readonly provider: SearchProvider,
    private readonly worker: WorkerIdentity,
    @InjectPinoLogger(CheckRunnerService.name) private readonly logger: PinoLogger,
    private readonly logContext: LogContext,
    private readonly usage: UsageService,
    private readonly clock: Clock,
    private readonly executions: ExecutionRepository,
    private readonly schedule: CheckScheduleRepository,
    private readonly metrics: MetricsService,
  ) {
    this.finisher = new BatchCommitter(
      transactions,
      MAX_FINISH_BATCH,
      (manager, items) => this.finish(manager, items),
      FINISH_PARALLELISM,
      FINISH_TRIES,
    );
  }

  /**
   * Runs a batch of jobs fetched together; resolves when every one is recorded. `release` is
   * called once per job as soon as that job is done (contract §11, "Checks": a worker frees a
   * slot as each check ends), so one slow check holds only its own slot, not its batch's. Each
   * check runs in its log context: every line logged for it carries its task and execution ids.
   */
  async runBatch(
    jobs: Array<QueueJob<CheckJobData>>,
    release: () => void = () => undefined,
  ): Promise<void> {
    const claimed = await this.claimAll(jobs);
    // Jobs with nothing to run (completed, or handed back to the queue) are done already.
    for (let index = claimed.length; index < jobs.length; index++) release();
    const unreserved = await this.reserveCalls(claimed);
    await Promise.all(
      claimed.map((check) =>
        this.logContext.run(logFieldsOf(check), async () => {
          try {
            const startedAt = performance.now();
            const outcome = unreserved ?? (await this.callProvider(check));
            await this.submitOutcome(check, outcome);
            if (check.ended) {
              this.metrics.recordCheck({
                ...check.ended,
                durationSeconds: (performance.now() - startedAt) / 1000,
              });
            }
          } finally {
            release();
          }
        }),
      ),
    );
  }

  /**
   * Reserves each claimed check's call under its owner's monthly budget, the budget check and
   * the reservation in one step (contract §11, "Budget"); a check whose owner reached it calls
   * no provider. When the reservations cannot be written, the checks are retried later: the
   * error is returned as their outcome.
   */
  private async reserveCalls(checks: ClaimedCheck[]): Promise<Error | undefined> {
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
      return new ProviderError('The monthly budget could not be checked', true);
    }
  }

  /**
   * Claims in rounds: tasks held by another transaction are skipped and tried again after a short
   * jittered pause, the last round waiting for their locks. A round that fails for good sends
   * its jobs back to the queue; the checks already claimed run on (none is left `running`
   * without a worker on it).
   */
  private async claimAll(jobs: Array<QueueJob<CheckJobData>>): Promise<ClaimedCheck[]> {
    const claimed: ClaimedCheck[] = [];
    let pending = jobs;
    for (let round = 1; pending.length > 0; round++) {
      const waitForLocks = round >= CLAIM_ROUNDS;
      try {
        const result = await this.transactions.run((manager) =>
          this.claim(manager, pending, waitForLocks),
        );
        claimed.push(...result.claimed);
        pending = result.busy;
      } catch (error) {
        if (claimed.length === 0) throw error;
        this.logger.warn({ jobs: pending.length, err: error }, 'Claiming checks failed');
        await this.queue.failOnceReachable(
          CHECK_QUEUE,
          pending.map((job) => job.id),
          'claim failed',
          checkReleaseDeadline(pending),
        );
        break;
      }
      if (pending.length > 0)
        await new Promise((resolve) => setTimeout(resolve, CLAIM_PAUSE_MS * (0.5 + Math.random())));
    }
    return claimed;
  }

  /**
   * Records a check's outcome. The commit retries lost lock conflicts, and the whole submission
   * is repeated a few times more: a conflict never turns a paid answer into a failed check.
   * Another refusal still ends the execution, as a failure. If even that cannot be written, the
   * execution goes back to `retrying` and its job to the queue, so nothing stays `running`.
   */
  private async submitOutcome(check: ClaimedCheck, outcome: CheckResult | Error): Promise<void> {
    let lastError: unknown;
    for (let round = 1; round <= FINISH_ROUNDS; round++) {
      try {
        // A paid answer that meets a database outage is recorded once the database answers,
        // while the job is still this worker's (contract §11, "Database outages").
        await retryWhileDatabaseUnavailable(() => this.finisher.submit({ check, outcome }), {
          until: checkReleaseDeadline([check.job]) - RELEASE_MARGIN_MS,
        });
        return;
      } catch (error) {
        lastError = error;
        if (!isLockConflict(error)) break;
      }
    }
    // Logged in the check's log context (`runBatch`): each line carries its ids.
    if (isDatabaseUnavailable(lastError)) {
      this.logger.error(
        { err: lastError },
        "A check's result could not be stored before its job expires",
      );
      return;
    }
    if (!isLockConflict(lastError)) {
      this.logger.error(
        { err: lastError },
        "A check's result could not be stored; the check is failed",
      );
      try {
        await this.finisher.submit({
          check,
          // error_message is the owner's to read: the database's words go to the log only.
          outcome: new ProviderError(RESULT_NOT_STORED),
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
    await this.transactions
      .run(async (manager) => {
        const marked = await this.executions.markRetrying(
          manager,
          [{ executionId: check.executionId, message: 'The result could not be stored' }],
          this.worker.id,
        );
        if (marked.size > 0)
          await this.queue.fail(CHECK_QUEUE, check.job.id, 'result not stored', manager);
      })
      .catch(() => undefined);
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

  /**
   * Marks each job's execution running (creating it for a scheduled check). A scheduled check only
   * runs while it is still its task's current check and the task is active; a run already in
   * flight for the task (a manual one) wins, and its result schedules the next check. Jobs with
   * nothing to run are completed at once.
   */
  private async claim(
    manager: EntityManager,
    batch: Array<QueueJob<CheckJobData>>,
    waitForLocks: boolean,
  ): Promise<ClaimRound> {
    const workerId = this.worker.id;
    // Lock order (contract §10): the tasks in id order first, then their executions and jobs.
    // Tasks of inactive users are not claimed (contract §11); their jobs complete below.
    const taskIds = [...new Set(batch.map((job) => job.data.taskId))];
    const locked = new Set(await this.schedule.lockForClaim(manager, taskIds, !waitForLocks));
    const held =
      locked.size === taskIds.length
        ? new Set<string>()
        : new Set(
            await this.schedule.claimableTasks(
              manager,
              taskIds.filter((id) => !locked.has(id)),
            ),
          );
    const busy = batch.filter((job) => held.has(job.data.taskId));
    const jobs = batch.filter((job) => !held.has(job.data.taskId));
    const manual = jobs.filter((job) => locked.has(job.data.taskId) && job.data.executionId);
    const scheduled = jobs.filter((job) => locked.has(job.data.taskId) && !job.data.executionId);
    const claimedRows: ClaimedRun[] = [];
    if (manual.length > 0) {
      claimedRows.push(
        ...(await this.executions.claimManualRuns(
          manager,
          manual.map((job) => ({ executionId: job.data.executionId as string, jobId: job.id })),
          workerId,
        )),
      );
    }
    if (scheduled.length > 0) {
      // A redelivered job (retry, or a worker that died) continues its execution row.
      const resumed = await this.executions.resumeScheduledRuns(
        manager,
        scheduled.map((job) => job.id),
        workerId,
      );
      const resumedJobs = new Set(resumed.map((row) => row.job_id));
      const fresh = scheduled.filter((job) => !resumedJobs.has(job.id));
      claimedRows.push(...resumed);
      if (fresh.length > 0) {
        claimedRows.push(
          ...(await this.executions.startScheduledRuns(
            manager,
            fresh.map((job) => ({ taskId: job.data.taskId, jobId: job.id })),
            workerId,
          )),
        );
      }
    }
    const claimedJobs = new Map(claimedRows.map((row) => [row.job_id, row.id]));
    await this.queue.complete(
      manager,
      CHECK_QUEUE,
      jobs.filter((job) => !claimedJobs.has(job.id)).map((job) => job.id),
    );
    if (claimedRows.length === 0) return { claimed: [], busy };
    const details = await this.executions.findRunDetails(
      manager,
      claimedRows.map((row) => row.id),
    );
    const jobsById = new Map(jobs.map((job) => [job.id, job]));
    const byExecution = new Map(details.map((row) => [row.execution_id, row]));
    const claimed = claimedRows.flatMap((row) => {
      const detail = byExecution.get(row.id);
      const job = jobsById.get(row.job_id);
      if (!detail || !job) return [];
      return [
        {
          job,
          executionId: row.id,
          taskId: detail.task_id,
          userId: detail.user_id,
          budgetReached: false,
          reservationId: null,
          searchQuery: detail.search_query,
          conditionDescription: detail.condition_description,
          previousState: detail.previous_state ?? detail.last_known_state,
          previousCheckAt: detail.previous_at,
          outputSchema: detail.output_schema,
        },
      ];
    });
    return { claimed, busy };
  }

  /**
   * Records a batch of outcomes and everything that follows from them, in the caller's
   * transaction: the tasks are locked, each outcome is planned, and the plans are written.
   */
  private async finish(manager: EntityManager, items: FinishedCheck[]): Promise<void> {
    const workerId = this.worker.id;
    const tasks = await this.schedule.lockForOutcomes(manager, [
      ...new Set(items.map((item) => item.check.taskId)),
    ]);
    const taskById = new Map(tasks.map((task) => [task.id, task]));
    const histories = await this.executions.findCheckHistories(
      manager,
      items.filter((item) => !(item.outcome instanceof Error)).map((item) => item.check.taskId),
    );
    const now = this.clock.now();
    const planned = items.map((item) => ({
      ...item,
      plan: planCheckOutcome({
        task: taskById.get(item.check.taskId),
        executionId: item.check.executionId,
        schema: item.check.outputSchema
          ? { schema: item.check.outputSchema, key: outputSchemaKey(item.check.outputSchema) }
          : null,
        history: histories.get(item.check.taskId) ?? NO_HISTORY,
        outcome: item.outcome,
        job: item.check.job,
        now,
        config: {
          alertAfterFailures: this.executionSettings.alertAfterFailures,
          scheduler: this.schedulerSettings,
        },
      }),
    }));
    const jobsToComplete: string[] = [];

    const retrying = planned.flatMap(({ check, plan }) =>
      plan.completesJob ? [] : [{ check, message: plan.message }],
    );
    if (retrying.length > 0) {
      const marked = await this.executions.markRetrying(
        manager,
        retrying.map(({ check, message }) => ({ executionId: check.executionId, message })),
        workerId,
      );
      await this.queue.fail(
        CHECK_QUEUE,
        retrying
          .filter(({ check }) => marked.has(check.executionId))
          .map(({ check }) => check.job.id),
        'provider call failed',
        manager,
      );
      jobsToComplete.push(
        ...retrying
          .filter(({ check }) => !marked.has(check.executionId))
          .map(({ check }) => check.job.id),
      );
    }

    const final = planned.flatMap(({ check, outcome, plan }) =>
      plan.completesJob ? [{ check, outcome, plan }] : [],
    );
    const recorded = await this.recordOutcomes(manager, final);
    jobsToComplete.push(...final.map(({ check }) => check.job.id));

    const moved = final.filter(
      (item): item is typeof item & { plan: { task: TaskOutcome } } =>
        item.plan.task !== null && recorded.has(item.check.executionId),
    );
    await this.queue.removeChecks(
      manager,
      moved.flatMap(({ plan }) => (plan.checkJobToRemove ? [plan.checkJobToRemove] : [])),
    );
    const scheduled = moved.filter(({ plan }) => plan.task.nextRun !== null);
    const jobIds = await this.queue.scheduleChecks(
      manager,
      scheduled.map(({ check, plan }) => ({
        taskId: check.taskId,
        runAt: plan.task.nextRun as Date,
      })),
    );
    const newJobIds = new Map(scheduled.map((item, index) => [item, jobIds[index]]));
    await this.schedule.applyOutcomes(
      manager,
      moved.map((item) => ({
        ...item.plan.task,
        id: item.check.taskId,
        lastExecutionId: item.check.executionId,
        checkJobId: newJobIds.get(item) ?? null,
      })),
    );
    await this.queue.enqueueDeliveries(
      manager,
      moved.flatMap(({ check, plan }) =>
        plan.deliveries.map(({ channel, event }) => ({
          id: deliveryJobId(check.executionId, channel, event),
          data: { executionId: check.executionId, taskId: check.taskId, channel, event },
        })),
      ),
    );
    await this.queue.complete(manager, CHECK_QUEUE, jobsToComplete);
    // The calls are over: their usage (if any) is recorded above, their reservations end here.
    await this.usage.releaseCalls(
      items.map((item) => item.check.reservationId),
      manager,
    );
    for (const { check, outcome } of final) {
      if (outcome instanceof Error && recorded.has(check.executionId)) {
        // Results are written in batches: each line in the context of its own check.
        this.logContext.run(logFieldsOf(check), () =>
          this.logger.warn({ error: outcome.message }, 'Check failed'),
        );
      }
    }
  }

  /**
   * Writes the final status and usage of each execution still running on this worker, and the
   * usage events of those written (one statement each for the batch); returns those written.
   */
  private async recordOutcomes(
    manager: EntityManager,
    items: Array<FinishedCheck & { plan: FinalPlan }>,
  ): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const recorded = await this.executions.recordOutcomes(
      manager,
      items.map(({ check, outcome, plan }) => {
        const failed = outcome instanceof Error;
        const usage = usageOf(outcome);
        const verdict = plan.verdict;
        return {
          id: check.executionId,
          status: failed ? 'failed' : 'success',
          error: failed ? outcome.message : null,
          result: JSON.stringify(
            failed
              ? { condition_met: null, error: outcome.message }
              : {
                  condition_met: verdict?.conditionMet ?? outcome.conditionMet,
                  claimed_met: outcome.conditionMet,
                  answer: outcome.answer,
                  reasoning: outcome.reasoning,
                  current_state: outcome.currentState,
                  next_check_at: outcome.nextCheckAt?.toISOString() ?? null,
                  provider: this.provider.name,
                },
          ),
          notification: JSON.stringify(plan.notification),
          conditionMet: failed ? null : (verdict?.conditionMet ?? outcome.conditionMet),
          claimedMet: failed ? null : outcome.conditionMet,
          evidence: verdict ? JSON.stringify(verdict.evidence) : null,
          values: verdict?.values ? JSON.stringify(verdict.values) : null,
          changes: verdict?.changes ? JSON.stringify(verdict.changes) : null,
          valuesSchemaKey:
            verdict?.values && check.outputSchema ? outputSchemaKey(check.outputSchema) : null,
          answer: failed ? null : outcome.answer,
          reasoning: failed ? null : outcome.reasoning,
          sources: failed ? null : JSON.stringify(outcome.groundingSources),
          usage: usage === null ? null : JSON.stringify(usage),
        };
      }),
      this.worker.id,
    );
    for (const { check, outcome } of items) {
      // Not recorded: the execution was cancelled (or taken over) while the provider answered.
      check.ended = recorded.has(check.executionId)
        ? { status: outcome instanceof Error ? 'failed' : 'success', usage: usageOf(outcome) }
        : { status: 'cancelled', usage: null };
    }
    await this.usage.recordChecks(
      manager,
      items.flatMap((item) => {
        const usage = usageOf(item.outcome);
        return usage !== null && recorded.has(item.check.executionId)
          ? [
              {
                userId: item.check.userId,
                kind: 'check' as const,
                executionId: item.check.executionId,
                usage,
              },
            ]
          : [];
      }),
    );
    return recorded;
  }
}

function logFieldsOf(check: ClaimedCheck): CheckLogFields {
  return { taskId: check.taskId, executionId: check.executionId };
}

/** The usage of a call that reached the provider; null when none was made. */
function usageOf(outcome: CheckResult | Error): ProviderUsage | null {
  if (outcome instanceof ProviderError) return outcome.usage;
  return outcome instanceof Error ? null : outcome.usage;
}

/**
 * Until when a worker keeps trying to hand checks back while the database is out of reach: the
 * earliest expiry among them, after which the queue brings them back by itself.
 */
export function checkReleaseDeadline(jobs: Array<QueueJob<CheckJobData>>): number {
  const started = Math.min(
    ...jobs.map((job) => (job.startedOn ? new Date(job.startedOn).getTime() : Date.now())),
  );
  return started + CHECK_JOB_EXPIRY_SECONDS * 1000;
}
