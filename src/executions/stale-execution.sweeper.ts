import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { queryRows } from '../database/sql-rows';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CHECK_QUEUE, JobQueueService, QUEUE_SCHEMA } from '../scheduler/job-queue.service';
import { WORKER_STALE_AFTER_MS } from '../scheduler/worker-heartbeat.service';

const SWEEP_INTERVAL_MS = 10_000;
const RESCHEDULE_EVERY_N_SWEEPS = 6;
const BATCH = 200;
export const INTERRUPTED_MESSAGE = 'The check was interrupted and could not be completed';

/**
 * Finds work that a dead process left behind, by time rather than by hope (design notes):
 *  1. running executions whose worker stopped heartbeating go back to the queue (`retrying`);
 *  2. in-flight executions whose job is gone or finished are failed (never left `running`);
 *  3. active tasks with no live check job get one, so no task silently stops being checked.
 */
@Injectable()
export class StaleExecutionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private sweeps = 0;
  private sweeping: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: JobQueueService,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.workerEnabled) return;
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = null));
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }

  async sweep(): Promise<void> {
    try {
      await this.requeueAbandoned();
      await this.failOrphaned();
      this.sweeps += 1;
      if (this.sweeps % RESCHEDULE_EVERY_N_SWEEPS === 1) await this.rescheduleUnscheduled();
    } catch (error) {
      this.logger.warn({ msg: 'Sweep failed', error: String(error) });
    }
  }

  /** Step 1: a running execution whose worker is silent goes back to the queue as `retrying`. */
  async requeueAbandoned(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows: Array<{ id: string; job_id: string | null }> = await queryRows(
        manager,
        `UPDATE executions SET status = 'retrying', worker_id = NULL,
           error_message = 'The worker running this check stopped; the check is retried'
         WHERE id IN (
           SELECT e.id FROM executions e
           WHERE e.status = 'running' AND NOT EXISTS (
             SELECT 1 FROM worker_instances w
             WHERE w.id = e.worker_id AND w.heartbeat_at > now() - make_interval(secs => $1))
           LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id, job_id`,
        [WORKER_STALE_AFTER_MS / 1000, BATCH],
      );
      for (const row of rows) {
        if (row.job_id) await this.queue.fail(CHECK_QUEUE, row.job_id, 'worker stopped', manager);
      }
      if (rows.length > 0)
        this.logger.warn({ msg: 'Requeued checks of a stopped worker', count: rows.length });
      return rows.length;
    });
  }

  /** Step 2: an in-flight execution whose job no longer lives can never finish: fail it. */
  async failOrphaned(): Promise<number> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE executions SET status = 'failed', completed_at = now(), error_message = $1, worker_id = NULL,
         result = jsonb_build_object('condition_met', NULL, 'error', $1::text),
         notification = '{"notify": false, "reason": "check_failed", "channels": [], "completes_task": false}'::jsonb
       WHERE id IN (
         SELECT e.id FROM executions e
         WHERE e.status IN ('pending', 'retrying') AND e.created_at < now() - interval '1 minute'
           AND NOT EXISTS (
             SELECT 1 FROM ${QUEUE_SCHEMA}.job j
             WHERE j.name = $2 AND j.id = e.job_id AND j.state IN ('created', 'retry', 'active'))
         LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [INTERRUPTED_MESSAGE, CHECK_QUEUE, BATCH],
    );
    if (rows.length > 0) this.logger.warn({ msg: 'Failed interrupted checks', count: rows.length });
    return rows.length;
  }

  /** Step 3: an active task with no live check job and no run in flight gets its check back. */
  async rescheduleUnscheduled(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const tasks: Array<{ id: string; next_run: Date | null }> = await queryRows(
        manager,
        `SELECT t.id, t.next_run FROM tasks t
         WHERE t.state = 'active'
           AND NOT EXISTS (
             SELECT 1 FROM ${QUEUE_SCHEMA}.job j
             WHERE j.name = $1 AND j.id = t.check_job_id AND j.state IN ('created', 'retry', 'active'))
           AND NOT EXISTS (
             SELECT 1 FROM executions e
             WHERE e.task_id = t.id AND e.status IN ('pending', 'running', 'retrying'))
         LIMIT $2 FOR UPDATE OF t SKIP LOCKED`,
        [CHECK_QUEUE, BATCH],
      );
      const now = new Date();
      for (const task of tasks) {
        const runAt = task.next_run && task.next_run > now ? task.next_run : now;
        const jobId = await this.queue.scheduleCheck(manager, task.id, runAt);
        await manager.query('UPDATE tasks SET check_job_id = $2, next_run = $3 WHERE id = $1', [
          task.id,
          jobId,
          runAt,
        ]);
      }
      if (tasks.length > 0)
        this.logger.warn({ msg: 'Rescheduled tasks that had no check', count: tasks.length });
      return tasks.length;
    });
  }
}
