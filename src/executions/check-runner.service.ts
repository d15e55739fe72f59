import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { queryRows } from '../database/sql-rows';
import type { NotificationEvent, NotificationType } from '../notifications/notification-types';
import {
  CHECK_QUEUE,
  CHECK_RETRY_LIMIT,
  JobQueueService,
  type CheckJobData,
  type QueueJob,
} from '../scheduler/job-queue.service';
import { WorkerIdentity } from '../scheduler/worker-identity';
import {
  ProviderError,
  SearchProvider,
  type CheckResult,
  type ProviderUsage,
} from '../search/search-provider';
import type { NotificationConfig, NotifyBehavior, TaskState } from '../tasks/task.entity';
import { startOfNextMonth } from '../usage/usage-month';
import { budgetReachedMessage, UsageService } from '../usage/usage.service';
import { Clock } from '../common/clock/clock';
import { BatchCommitter } from '../common/batching/batch-committer';
import {
  channelsFor,
  comparableState,
  decideFailureStreak,
  decideNotification,
  type NotifyDecision,
  type StreakDecision,
} from './notify-decision';

/** When the agent gives no usable time, check again after this long (then clamped to the bounds). */
export const DEFAULT_CHECK_INTERVAL_MS = 60 * 60_000;

export interface DeliveryJobData {
  executionId: string;
  taskId: string;
  channel: NotificationType;
  /** Absent in jobs queued before events existed: `condition_met`. */
  event?: NotificationEvent;
}

/**
 * A delivery's job id is derived from (execution, channel, event): enqueueing it twice is a
 * no-op. A condition-met delivery keeps the id it had before there were other events.
 */
export function deliveryJobId(
  executionId: string,
  channel: NotificationType,
  event: NotificationEvent = 'condition_met',
): string {
  const key = event === 'condition_met' ? '' : `:${event}`;
  const hex = createHash('sha256').update(`delivery:${executionId}:${channel}${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A check whose owner reached `USER_MONTHLY_BUDGET_USD`: no provider call, retried next month. */
export class BudgetReachedError extends Error {
  constructor(budgetUsd: number) {
    super(budgetReachedMessage(budgetUsd));
    this.name = 'BudgetReachedError';
  }
}

/** A job whose execution is now `running` on this worker. */
interface ClaimedCheck {
  job: QueueJob<CheckJobData>;
  executionId: string;
  taskId: string;
  userId: string;
  /** The owner reached the monthly budget when the check was claimed. */
  budgetReached: boolean;
  searchQuery: string;
  conditionDescription: string;
  previousState: Record<string, unknown> | null;
  previousCheckAt: Date | null;
}

interface FinishedCheck {
  check: ClaimedCheck;
  outcome: CheckResult | Error;
}

interface LockedTask {
  id: string;
  state: TaskState;
  notify_behavior: NotifyBehavior;
  notifications: NotificationConfig[];
  last_known_state: Record<string, unknown> | null;
  check_job_id: string | null;
  consecutive_failures: number;
  failure_alerted: boolean;
}

const MAX_FINISH_BATCH = 100;
/** Result batches committing at once; each locks its tasks in id order, so they cannot deadlock. */
const FINISH_PARALLELISM = 3;

/**
 * Runs check jobs (design notes, "The flow of one check"): claim (execution `running`), one
 * provider call outside any transaction, then one transaction that records the result, moves the
 * task on, schedules the next check, queues the deliveries and completes the job. Claims and
 * results are written in batches, so the database work per check stays small under load.
 */
@Injectable()
export class CheckRunnerService {
  private readonly finisher: BatchCommitter<FinishedCheck>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: JobQueueService,
    private readonly provider: SearchProvider,
    private readonly worker: WorkerIdentity,
    private readonly logger: JsonLogger,
    private readonly usage: UsageService,
    private readonly clock: Clock,
  ) {
    this.finisher = new BatchCommitter(
      dataSource,
      MAX_FINISH_BATCH,
      (manager, items) => this.finish(manager, items),
      FINISH_PARALLELISM,
    );
  }

  /** Runs a batch of jobs fetched together; resolves when every one is recorded. */
  async runBatch(jobs: Array<QueueJob<CheckJobData>>): Promise<void> {
    const claimed = await this.dataSource.transaction((manager) => this.claim(manager, jobs));
    await Promise.all(
      claimed.map(async (check) => {
        const outcome = await this.callProvider(check);
        await this.finisher.submit({ check, outcome }).catch((error: unknown) =>
          // A result the database refuses still ends its execution, as a failure.
          this.finisher.submit({
            check,
            outcome: new ProviderError(`The check's result could not be stored: ${String(error)}`),
          }),
        );
      }),
    );
  }

  private async callProvider(check: ClaimedCheck): Promise<CheckResult | Error> {
    const budget = this.config.userMonthlyBudgetUsd;
    if (check.budgetReached && budget !== null) return new BudgetReachedError(budget);
    try {
      return await this.provider.check({
        searchQuery: check.searchQuery,
        conditionDescription: check.conditionDescription,
        previousState: check.previousState,
        previousCheckAt: check.previousCheckAt,
        now: this.clock.now(),
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
    jobs: Array<QueueJob<CheckJobData>>,
  ): Promise<ClaimedCheck[]> {
    const workerId = this.worker.id;
    const manual = jobs.filter((job) => job.data.executionId);
    const scheduled = jobs.filter((job) => !job.data.executionId);
    const claimedRows: Array<{ id: string; job_id: string }> = [];
    if (manual.length > 0) {
      claimedRows.push(
        ...(await queryRows<{ id: string; job_id: string }>(
          manager,
          `UPDATE executions e SET status = 'running', attempts = e.attempts + 1, worker_id = $3, job_id = j.job_id,
             started_at = CASE WHEN e.attempts = 0 THEN now() ELSE e.started_at END
           FROM unnest($1::uuid[], $2::uuid[]) AS j(execution_id, job_id)
           WHERE e.id = j.execution_id AND e.status IN ('pending', 'retrying', 'running')
           RETURNING e.id, e.job_id`,
          [manual.map((job) => job.data.executionId), manual.map((job) => job.id), workerId],
        )),
      );
    }
    if (scheduled.length > 0) {
      // A redelivered job (retry, or a worker that died) continues its execution row.
      const resumed = await queryRows<{ id: string; job_id: string }>(
        manager,
        `UPDATE executions SET status = 'running', attempts = attempts + 1, worker_id = $2
         WHERE job_id = ANY($1::uuid[]) AND status IN ('retrying', 'running') RETURNING id, job_id`,
        [scheduled.map((job) => job.id), workerId],
      );
      const resumedJobs = new Set(resumed.map((row) => row.job_id));
      const fresh = scheduled.filter((job) => !resumedJobs.has(job.id));
      claimedRows.push(...resumed);
      if (fresh.length > 0) {
        claimedRows.push(
          ...(await queryRows<{ id: string; job_id: string }>(
            manager,
            `INSERT INTO executions (task_id, status, trigger, job_id, attempts, worker_id)
             SELECT t.id, 'running', 'scheduled', j.job_id, 1, $3
             FROM unnest($1::uuid[], $2::uuid[]) AS j(task_id, job_id)
             JOIN tasks t ON t.id = j.task_id AND t.state = 'active' AND t.check_job_id = j.job_id
             ORDER BY t.id
             ON CONFLICT DO NOTHING
             RETURNING id, job_id`,
            [fresh.map((job) => job.data.taskId), fresh.map((job) => job.id), workerId],
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
    if (claimedRows.length === 0) return [];
    const details = await queryRows<{
      execution_id: string;
      task_id: string;
      user_id: string;
      search_query: string;
      condition_description: string;
      last_known_state: Record<string, unknown> | null;
      previous_state: Record<string, unknown> | null;
      previous_at: Date | null;
    }>(
      manager,
      `SELECT e.id AS execution_id, t.id AS task_id, t.user_id, t.search_query, t.condition_description, t.last_known_state,
              p.result -> 'current_state' AS previous_state, p.completed_at AS previous_at
       FROM executions e
       JOIN tasks t ON t.id = e.task_id
       LEFT JOIN LATERAL (
         SELECT result, completed_at FROM executions
         WHERE task_id = t.id AND status = 'success' ORDER BY created_at DESC LIMIT 1
       ) p ON true
       WHERE e.id = ANY($1::uuid[])`,
      [claimedRows.map((row) => row.id)],
    );
    const atBudget = await this.usage.usersAtBudget(
      [...new Set(details.map((row) => row.user_id))],
      this.clock.now(),
      manager,
    );
    const jobsById = new Map(jobs.map((job) => [job.id, job]));
    const byExecution = new Map(details.map((row) => [row.execution_id, row]));
    return claimedRows.flatMap((row) => {
      const detail = byExecution.get(row.id);
      const job = jobsById.get(row.job_id);
      if (!detail || !job) return [];
      return [
        {
          job,
          executionId: row.id,
          taskId: detail.task_id,
          userId: detail.user_id,
          budgetReached: atBudget.has(detail.user_id),
          searchQuery: detail.search_query,
          conditionDescription: detail.condition_description,
          previousState: detail.previous_state ?? detail.last_known_state,
          previousCheckAt: detail.previous_at,
        },
      ];
    });
  }

  /** Records a batch of outcomes and everything that follows from them, in the caller's transaction. */
  private async finish(manager: EntityManager, items: FinishedCheck[]): Promise<void> {
    const workerId = this.worker.id;
    const tasks = await queryRows<LockedTask>(
      manager,
      `SELECT id, state, notify_behavior, notifications, last_known_state, check_job_id,
         consecutive_failures, failure_alerted FROM tasks
       WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
      [[...new Set(items.map((item) => item.check.taskId))]],
    );
    const taskById = new Map(tasks.map((task) => [task.id, task]));
    const jobsToComplete: string[] = [];

    const retrying = items.filter(
      (item) =>
        item.outcome instanceof Error &&
        isRetryable(item.outcome) &&
        item.check.job.retryCount < CHECK_RETRY_LIMIT,
    );
    if (retrying.length > 0) {
      const marked = await queryRows<{ id: string }>(
        manager,
        `UPDATE executions e SET status = 'retrying', error_message = r.message, worker_id = NULL
         FROM unnest($1::uuid[], $2::text[]) AS r(id, message)
         WHERE e.id = r.id AND e.status = 'running' AND e.worker_id = $3 RETURNING e.id`,
        [
          retrying.map((item) => item.check.executionId),
          retrying.map((item) => (item.outcome as Error).message),
          workerId,
        ],
      );
      const markedIds = new Set(marked.map((row) => row.id));
      const toFail = retrying.filter((item) => markedIds.has(item.check.executionId));
      await this.queue.fail(
        CHECK_QUEUE,
        toFail.map((item) => item.check.job.id),
        'provider call failed',
        manager,
      );
      jobsToComplete.push(
        ...retrying
          .filter((item) => !markedIds.has(item.check.executionId))
          .map((item) => item.check.job.id),
      );
    }

    const final = items.filter((item) => !retrying.includes(item));
    const decisions = new Map<FinishedCheck, NotifyDecision>();
    const streaks = new Map<FinishedCheck, StreakDecision>();
    for (const item of final) {
      const task = taskById.get(item.check.taskId);
      if (!task) {
        decisions.set(item, silentDecision('task_deleted'));
        continue;
      }
      const streak = decideFailureStreak({
        failed: item.outcome instanceof Error,
        consecutiveFailures: task.consecutive_failures,
        alerted: task.failure_alerted,
        alertAfter: this.config.alertAfterFailures,
        configs: task.notifications,
      });
      streaks.set(item, streak);
      const decision = this.decide(task, item.outcome);
      decisions.set(item, streak.alert ? { ...decision, alert: streak.alert } : decision);
    }
    const recorded = await this.recordOutcomes(manager, final, decisions);
    jobsToComplete.push(...final.map((item) => item.check.job.id));

    const now = this.clock.now();
    const checksToRemove: string[] = [];
    const checksToSchedule: Array<{ taskId: string; runAt: Date }> = [];
    const taskUpdates: Array<{
      id: string;
      lastExecutionId: string;
      lastKnownState: Record<string, unknown> | null;
      state: TaskState;
      stateChanged: boolean;
      nextRun: Date | null;
      checkJobIndex: number | null;
      keepCheckJob: boolean;
      streak: StreakDecision;
    }> = [];
    const deliveries: Array<{ id: string; data: DeliveryJobData }> = [];
    for (const item of final) {
      const task = taskById.get(item.check.taskId);
      if (!task || !recorded.has(item.check.executionId)) continue;
      const decision = decisions.get(item) as NotifyDecision;
      const outcome = item.outcome;
      const staleCheck =
        task.check_job_id && task.check_job_id !== item.check.job.id ? task.check_job_id : null;
      const update = {
        id: task.id,
        lastExecutionId: item.check.executionId,
        lastKnownState:
          decision.notify && !(outcome instanceof Error)
            ? comparableState(outcome)
            : task.last_known_state,
        state: task.state,
        stateChanged: false,
        nextRun: null as Date | null,
        checkJobIndex: null as number | null,
        keepCheckJob: false,
        streak: streaks.get(item) as StreakDecision,
      };
      if (decision.completes_task) {
        if (staleCheck) checksToRemove.push(staleCheck);
        update.state = 'completed';
        update.stateChanged = true;
      } else if (task.state === 'active') {
        if (staleCheck) checksToRemove.push(staleCheck);
        update.nextRun =
          outcome instanceof BudgetReachedError
            ? startOfNextMonth(now)
            : this.nextRunAfter(
                now,
                outcome instanceof Error ? null : outcome.nextCheckAt,
                outcome instanceof Error,
              );
        update.checkJobIndex =
          checksToSchedule.push({ taskId: task.id, runAt: update.nextRun }) - 1;
      } else {
        // paused or completed: a manual run changes neither the state nor the (absent) schedule
        update.keepCheckJob = true;
      }
      taskUpdates.push(update);
      const events: Array<[NotificationEvent, NotificationType[]]> = [
        ['condition_met', decision.notify ? decision.channels : []],
        ...(decision.alert ? [[decision.alert.event, decision.alert.channels] as [NotificationEvent, NotificationType[]]] : []),
      ];
      for (const [event, channels] of events) {
        for (const channel of channels) {
          deliveries.push({
            id: deliveryJobId(item.check.executionId, channel, event),
            data: { executionId: item.check.executionId, taskId: task.id, channel, event },
          });
        }
      }
    }
    await this.queue.removeChecks(manager, checksToRemove);
    const newJobIds = await this.queue.scheduleChecks(manager, checksToSchedule);
    if (taskUpdates.length > 0) {
      await manager.query(
        `UPDATE tasks t SET
           last_execution_id = u.last_execution_id,
           last_known_state = u.last_known_state::jsonb,
           state = u.state,
           state_changed_at = CASE WHEN u.state_changed THEN now() ELSE t.state_changed_at END,
           next_run = CASE WHEN u.keep_check_job THEN t.next_run ELSE u.next_run END,
           check_job_id = CASE WHEN u.keep_check_job THEN t.check_job_id ELSE u.check_job_id END,
           consecutive_failures = u.consecutive_failures,
           failure_alerted = u.failure_alerted
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::boolean[], $6::timestamptz[], $7::uuid[], $8::boolean[], $9::int[], $10::boolean[])
           AS u(id, last_execution_id, last_known_state, state, state_changed, next_run, check_job_id, keep_check_job,
             consecutive_failures, failure_alerted)
         WHERE t.id = u.id`,
        [
          taskUpdates.map((update) => update.id),
          taskUpdates.map((update) => update.lastExecutionId),
          taskUpdates.map((update) =>
            update.lastKnownState === null ? null : JSON.stringify(update.lastKnownState),
          ),
          taskUpdates.map((update) => update.state),
          taskUpdates.map((update) => update.stateChanged),
          taskUpdates.map((update) => update.nextRun?.toISOString() ?? null),
          taskUpdates.map((update) =>
            update.checkJobIndex === null ? null : newJobIds[update.checkJobIndex],
          ),
          taskUpdates.map((update) => update.keepCheckJob),
          taskUpdates.map((update) => update.streak.consecutiveFailures),
          taskUpdates.map((update) => update.streak.alerted),
        ],
      );
    }
    await this.queue.enqueueDeliveries(manager, deliveries);
    await this.queue.complete(manager, CHECK_QUEUE, jobsToComplete);
    for (const item of final) {
      if (item.outcome instanceof Error && recorded.has(item.check.executionId)) {
        this.logger.warn({
          msg: 'Check failed',
          taskId: item.check.taskId,
          executionId: item.check.executionId,
          error: item.outcome.message,
        });
      }
    }
  }

  private decide(task: LockedTask, outcome: CheckResult | Error): NotifyDecision {
    if (outcome instanceof Error) return silentDecision('check_failed');
    return decideNotification({
      conditionMet: outcome.conditionMet,
      currentState: outcome.currentState,
      answer: outcome.answer,
      taskState: task.state,
      notifyBehavior: task.notify_behavior,
      lastNotifiedState: task.last_known_state,
      channels: channelsFor(task.notifications, 'condition_met'),
    });
  }

  /**
   * Writes the final status and usage of each execution still running on this worker, and the
   * usage events of those written (one statement each for the batch); returns those written.
   */
  private async recordOutcomes(
    manager: EntityManager,
    items: FinishedCheck[],
    decisions: Map<FinishedCheck, NotifyDecision>,
  ): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const columns = items.map((item) => {
      const outcome = item.outcome;
      const failed = outcome instanceof Error;
      return {
        id: item.check.executionId,
        status: failed ? 'failed' : 'success',
        error: failed ? outcome.message : null,
        result: JSON.stringify(
          failed
            ? { condition_met: null, error: outcome.message }
            : {
                condition_met: outcome.conditionMet,
                answer: outcome.answer,
                reasoning: outcome.reasoning,
                current_state: outcome.currentState,
                next_check_at: outcome.nextCheckAt?.toISOString() ?? null,
                provider: this.provider.name,
              },
        ),
        notification: JSON.stringify(decisions.get(item)),
        conditionMet: failed ? null : outcome.conditionMet,
        answer: failed ? null : outcome.answer,
        reasoning: failed ? null : outcome.reasoning,
        sources: failed ? null : JSON.stringify(outcome.groundingSources),
        usage: usageOf(outcome),
      };
    });
    const rows = await queryRows<{ id: string }>(
      manager,
      `UPDATE executions e SET status = v.status, completed_at = now(), error_message = v.error,
         result = v.result::jsonb, notification = v.notification::jsonb, condition_met = v.condition_met,
         answer = v.answer, reasoning = v.reasoning, grounding_sources = v.sources::jsonb,
         usage = v.usage::jsonb, worker_id = NULL
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::text[], $9::text[], $10::text[])
         AS v(id, status, error, result, notification, condition_met, answer, reasoning, sources, usage)
       WHERE e.id = v.id AND e.status = 'running' AND e.worker_id = $11
       RETURNING e.id`,
      [
        columns.map((column) => column.id),
        columns.map((column) => column.status),
        columns.map((column) => column.error),
        columns.map((column) => column.result),
        columns.map((column) => column.notification),
        columns.map((column) => column.conditionMet),
        columns.map((column) => column.answer),
        columns.map((column) => column.reasoning),
        columns.map((column) => column.sources),
        columns.map((column) => (column.usage === null ? null : JSON.stringify(column.usage))),
        this.worker.id,
      ],
    );
    const recorded = new Set(rows.map((row) => row.id));
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

  /** The agent's choice clamped to SCHEDULER_MIN_INTERVAL..SCHEDULER_MAX_INTERVAL from now. */
  nextRunAfter(now: Date, chosen: Date | null, failed: boolean): Date {
    const { minIntervalMs, maxIntervalMs } = this.config.scheduler;
    const fallback = failed ? minIntervalMs : DEFAULT_CHECK_INTERVAL_MS;
    const wanted =
      chosen && Number.isFinite(chosen.getTime()) ? chosen.getTime() - now.getTime() : fallback;
    return new Date(now.getTime() + Math.min(maxIntervalMs, Math.max(minIntervalMs, wanted)));
  }
}

function silentDecision(reason: string): NotifyDecision {
  return { notify: false, reason, channels: [], completes_task: false };
}

function isRetryable(error: Error): boolean {
  return error instanceof ProviderError
    ? error.retryable
    : error.name !== 'ProviderNotConfiguredError' && !(error instanceof BudgetReachedError);
}

/** The usage of a call that reached the provider; null when none was made. */
function usageOf(outcome: CheckResult | Error): ProviderUsage | null {
  if (outcome instanceof ProviderError) return outcome.usage;
  return outcome instanceof Error ? null : outcome.usage;
}
