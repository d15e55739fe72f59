import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { queryRows } from '../database/sql-rows';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { NotificationType } from '../notifications/notification-send.entity';
import {
  CHECK_QUEUE,
  CHECK_RETRY_LIMIT,
  JobQueueService,
  type CheckJobData,
  type QueueJob,
} from '../scheduler/job-queue.service';
import { WorkerIdentity } from '../scheduler/worker-identity';
import { ProviderError, SearchProvider, type CheckResult } from '../search/search-provider';
import { TaskEntity } from '../tasks/task.entity';
import { ExecutionEntity } from './execution.entity';
import { comparableState, decideNotification, type NotifyDecision } from './notify-decision';

/** When the agent gives no usable time, check again after this long (then clamped to the bounds). */
export const DEFAULT_CHECK_INTERVAL_MS = 60 * 60_000;

interface ClaimedCheck {
  execution: ExecutionEntity;
  task: TaskEntity;
  previousState: Record<string, unknown> | null;
  previousCheckAt: Date | null;
}

export interface DeliveryJobData {
  executionId: string;
  taskId: string;
  channel: NotificationType;
}

/** A delivery's job id is derived from (execution, channel): enqueueing it twice is a no-op. */
export function deliveryJobId(executionId: string, channel: NotificationType): string {
  const hex = createHash('sha256').update(`delivery:${executionId}:${channel}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Runs one check job: claim (execution `running`), one provider call outside any transaction,
 * then one transaction that records the result, moves the task on, schedules the next check,
 * queues the deliveries and completes the job (design notes, "The flow of one check").
 */
@Injectable()
export class CheckRunnerService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: JobQueueService,
    private readonly provider: SearchProvider,
    private readonly worker: WorkerIdentity,
    private readonly logger: JsonLogger,
  ) {}

  async run(job: QueueJob<CheckJobData>): Promise<void> {
    const claimed = await this.dataSource.transaction((manager) => this.claim(manager, job));
    if (!claimed) return;
    let outcome: CheckResult | Error;
    try {
      outcome = await this.provider.check({
        searchQuery: claimed.task.searchQuery,
        conditionDescription: claimed.task.conditionDescription,
        previousState: claimed.previousState,
        previousCheckAt: claimed.previousCheckAt,
        now: new Date(),
      });
    } catch (error) {
      outcome = error instanceof Error ? error : new Error(String(error));
    }
    await this.dataSource.transaction((manager) => this.finish(manager, job, claimed, outcome));
  }

  /** Marks the job's execution running (creating it for a scheduled check); null when there is nothing to run. */
  private async claim(
    manager: EntityManager,
    job: QueueJob<CheckJobData>,
  ): Promise<ClaimedCheck | null> {
    const workerId = this.worker.id;
    let rows: Array<{ id: string }>;
    if (job.data.executionId) {
      rows = await queryRows(
        manager,
        `UPDATE executions SET status = 'running', attempts = attempts + 1, worker_id = $2, job_id = $3,
           started_at = CASE WHEN attempts = 0 THEN now() ELSE started_at END
         WHERE id = $1 AND status IN ('pending', 'retrying', 'running') RETURNING id`,
        [job.data.executionId, workerId, job.id],
      );
    } else {
      rows = await queryRows(
        manager,
        `UPDATE executions SET status = 'running', attempts = attempts + 1, worker_id = $2
         WHERE job_id = $1 AND status IN ('retrying', 'running') RETURNING id`,
        [job.id, workerId],
      );
      if (rows.length === 0) {
        // Only the task's current scheduled check runs, and only while the task is active. A run
        // already in flight for the task (a manual one) wins: its result schedules the next check.
        rows = await queryRows(
          manager,
          `INSERT INTO executions (task_id, status, trigger, job_id, attempts, worker_id)
           SELECT id, 'running', 'scheduled', $2, 1, $3 FROM tasks
           WHERE id = $1 AND state = 'active' AND check_job_id = $2
           ON CONFLICT DO NOTHING RETURNING id`,
          [job.data.taskId, job.id, workerId],
        );
      }
    }
    if (rows.length === 0) {
      await this.queue.complete(manager, CHECK_QUEUE, job.id);
      return null;
    }
    const execution = await manager.findOneByOrFail(ExecutionEntity, { id: rows[0].id });
    const task = await manager.findOneBy(TaskEntity, { id: execution.taskId });
    if (!task) return null;
    const previous: Array<{ state: Record<string, unknown> | null; completed_at: Date }> =
      await manager.query(
        `SELECT result -> 'current_state' AS state, completed_at FROM executions
       WHERE task_id = $1 AND status = 'success' ORDER BY created_at DESC LIMIT 1`,
        [task.id],
      );
    return {
      execution,
      task,
      previousState: previous[0]?.state ?? task.lastKnownState,
      previousCheckAt: previous[0]?.completed_at ?? null,
    };
  }

  private async finish(
    manager: EntityManager,
    job: QueueJob<CheckJobData>,
    claimed: ClaimedCheck,
    outcome: CheckResult | Error,
  ): Promise<void> {
    const task = await manager.findOne(TaskEntity, {
      where: { id: claimed.task.id },
      lock: { mode: 'pessimistic_write' },
    });
    if (!task) {
      await this.queue.complete(manager, CHECK_QUEUE, job.id); // deleted meanwhile (its executions too)
      return;
    }
    if (outcome instanceof Error && isRetryable(outcome) && job.retryCount < CHECK_RETRY_LIMIT) {
      const marked = await queryRows(
        manager,
        `UPDATE executions SET status = 'retrying', error_message = $3, worker_id = NULL
         WHERE id = $1 AND status = 'running' AND worker_id = $2 RETURNING id`,
        [claimed.execution.id, this.worker.id, outcome.message],
      );
      if (marked.length > 0) await this.queue.fail(CHECK_QUEUE, job.id, outcome.message, manager);
      else await this.queue.complete(manager, CHECK_QUEUE, job.id);
      return;
    }
    const now = new Date();
    const decision =
      outcome instanceof Error
        ? ({
            notify: false,
            reason: 'check_failed',
            channels: [],
            completes_task: false,
          } satisfies NotifyDecision)
        : decideNotification({
            conditionMet: outcome.conditionMet,
            currentState: outcome.currentState,
            answer: outcome.answer,
            taskState: task.state,
            notifyBehavior: task.notifyBehavior,
            lastNotifiedState: task.lastKnownState,
            channels: task.notifications.map((config) => config.type),
          });
    const recorded = await this.recordOutcome(manager, claimed.execution.id, outcome, decision);
    if (!recorded) {
      // Cancelled by a forced run (or failed by the sweeper) meanwhile: this result is dropped.
      await this.queue.complete(manager, CHECK_QUEUE, job.id);
      return;
    }

    task.lastExecutionId = claimed.execution.id;
    if (decision.notify && !(outcome instanceof Error))
      task.lastKnownState = comparableState(outcome);
    if (decision.completes_task) {
      await this.queue.removeCheck(manager, task.checkJobId === job.id ? null : task.checkJobId);
      task.state = 'completed';
      task.stateChangedAt = now;
      task.nextRun = null;
      task.checkJobId = null;
    } else if (task.state === 'active') {
      const nextRun = this.nextRunAfter(
        now,
        outcome instanceof Error ? null : outcome.nextCheckAt,
        outcome instanceof Error,
      );
      if (task.checkJobId !== job.id) await this.queue.removeCheck(manager, task.checkJobId);
      task.checkJobId = await this.queue.scheduleCheck(manager, task.id, nextRun);
      task.nextRun = nextRun;
    }
    await manager.save(task);
    if (decision.notify) {
      await this.queue.enqueueDeliveries(
        manager,
        decision.channels.map((channel) => ({
          id: deliveryJobId(claimed.execution.id, channel),
          data: {
            executionId: claimed.execution.id,
            taskId: task.id,
            channel,
          } satisfies DeliveryJobData,
        })),
      );
    }
    await this.queue.complete(manager, CHECK_QUEUE, job.id);
    if (outcome instanceof Error) {
      this.logger.warn({
        msg: 'Check failed',
        taskId: task.id,
        executionId: claimed.execution.id,
        error: outcome.message,
      });
    }
  }

  private async recordOutcome(
    manager: EntityManager,
    executionId: string,
    outcome: CheckResult | Error,
    decision: NotifyDecision,
  ): Promise<boolean> {
    const common = [executionId, this.worker.id, JSON.stringify(decision)];
    const rows: unknown[] =
      outcome instanceof Error
        ? await queryRows(
            manager,
            `UPDATE executions SET status = 'failed', completed_at = now(), error_message = $4,
               result = $5::jsonb, notification = $3::jsonb, worker_id = NULL
             WHERE id = $1 AND status = 'running' AND worker_id = $2 RETURNING id`,
            [
              ...common,
              outcome.message,
              JSON.stringify({ condition_met: null, error: outcome.message }),
            ],
          )
        : await queryRows(
            manager,
            `UPDATE executions SET status = 'success', completed_at = now(), error_message = NULL,
               result = $4::jsonb, notification = $3::jsonb, condition_met = $5, answer = $6, reasoning = $7,
               grounding_sources = $8::jsonb, worker_id = NULL
             WHERE id = $1 AND status = 'running' AND worker_id = $2 RETURNING id`,
            [
              ...common,
              JSON.stringify({
                condition_met: outcome.conditionMet,
                answer: outcome.answer,
                reasoning: outcome.reasoning,
                current_state: outcome.currentState,
                next_check_at: outcome.nextCheckAt?.toISOString() ?? null,
                provider: this.provider.name,
              }),
              outcome.conditionMet,
              outcome.answer,
              outcome.reasoning,
              JSON.stringify(outcome.groundingSources),
            ],
          );
    return rows.length > 0;
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

function isRetryable(error: Error): boolean {
  return error instanceof ProviderError
    ? error.retryable
    : !(error.name === 'ProviderNotConfiguredError');
}
