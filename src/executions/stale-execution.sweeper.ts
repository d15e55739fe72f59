import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';
import { queryRows } from '../database/sql-rows';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CHECK_QUEUE, JobQueueService, QUEUE_SCHEMA } from '../scheduler/job-queue.service';
import { PeriodicJobs } from '../scheduler/periodic-jobs.service';
import { WORKER_STALE_AFTER_MS } from '../scheduler/worker-heartbeat.service';
import { Clock } from '../common/clock/clock';

const SWEEP_INTERVAL_MS = 5_000;
const RESCHEDULE_EVERY_N_SWEEPS = 12;
const BATCH = 200;
/** A check that took its worker down this many times is failed rather than tried again. */
export const MAX_ATTEMPTS = 3;
export const INTERRUPTED_MESSAGE = 'The check was interrupted and could not be completed';

/**
 * Finds work that a dead process left behind, by time rather than by hope (design notes):
 *  0. check jobs a dead worker took but never started go back to the queue;
 *  1. running executions whose worker stopped heartbeating go back to the queue (`retrying`);
 *  2. in-flight executions whose job is gone or finished are failed (never left `running`), even
 *     under a live worker;
 *  3. active tasks with no live check job get one, so no task silently stops being checked.
 */
@Injectable()
export class StaleExecutionSweeper implements OnApplicationBootstrap {
  private sweeps = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: JobQueueService,
    private readonly logger: JsonLogger,
    private readonly jobs: PeriodicJobs,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.workerEnabled) this.jobs.every('stale-executions', SWEEP_INTERVAL_MS, () => this.sweep());
  }

  async sweep(): Promise<void> {
    try {
      await this.requeueUnclaimedChecks();
      const failed = (await this.requeueAbandoned()) + (await this.failOrphaned());
      this.sweeps += 1;
      if (failed > 0 || this.sweeps % RESCHEDULE_EVERY_N_SWEEPS === 1)
        await this.rescheduleUnscheduled();
    } catch (error) {
      this.logger.warn({ msg: 'Sweep failed', error: String(error) });
    }
  }

  /**
   * Step 0: a scheduled check job taken from the queue but never claimed (its worker died between
   * the fetch and the claim, a window of milliseconds) is replaced by a new job due now, instead of
   * waiting for the queue's expiry.
   */
  async requeueUnclaimedChecks(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const jobs = await queryRows<{ id: string; task_id: string }>(
        manager,
        `SELECT j.id, (j.data ->> 'taskId')::uuid AS task_id FROM ${QUEUE_SCHEMA}.job j
         WHERE j.name = $1 AND j.state = 'active' AND j.started_on < now() - make_interval(secs => $2)
           AND j.data ->> 'executionId' IS NULL
           AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.job_id = j.id)
         LIMIT $3 FOR UPDATE OF j SKIP LOCKED`,
        [CHECK_QUEUE, WORKER_STALE_AFTER_MS / 1000, BATCH],
      );
      if (jobs.length === 0) return 0;
      await this.queue.complete(
        manager,
        CHECK_QUEUE,
        jobs.map((job) => job.id),
      );
      const tasks = await queryRows<{ id: string }>(
        manager,
        `SELECT t.id FROM tasks t JOIN unnest($1::uuid[], $2::uuid[]) AS j(task_id, job_id)
           ON t.id = j.task_id AND t.check_job_id = j.job_id
         WHERE t.state = 'active' ORDER BY t.id FOR UPDATE OF t`,
        [jobs.map((job) => job.task_id), jobs.map((job) => job.id)],
      );
      await this.checkNow(
        manager,
        tasks.map((task) => task.id),
      );
      this.logger.warn({ msg: 'Requeued checks taken by a stopped worker', count: jobs.length });
      return jobs.length;
    });
  }

  /**
   * Step 1: a running execution whose worker is silent (or a pending one whose job was taken by a
   * worker that died before starting it) goes straight back to the queue with a new job, keeping
   * its execution row; after MAX_ATTEMPTS it is failed instead. Returns how many were failed.
   */
  async requeueAbandoned(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await queryRows<{
        id: string;
        task_id: string;
        job_id: string | null;
        status: string;
      }>(
        manager,
        `UPDATE executions e SET
           status = CASE WHEN e.attempts >= $3 THEN 'failed' ELSE 'retrying' END,
           completed_at = CASE WHEN e.attempts >= $3 THEN now() END,
           error_message = CASE WHEN e.attempts >= $3 THEN $4 ELSE 'The worker running this check stopped; the check is retried' END,
           result = CASE WHEN e.attempts >= $3 THEN jsonb_build_object('condition_met', NULL, 'error', $4::text) END,
           notification = CASE WHEN e.attempts >= $3
             THEN '{"notify": false, "reason": "check_failed", "channels": [], "completes_task": false}'::jsonb END,
           worker_id = NULL
         WHERE e.id IN (
           SELECT x.id FROM executions x
           LEFT JOIN ${QUEUE_SCHEMA}.job j ON j.name = $5 AND j.id = x.job_id
           WHERE (x.status = 'running' AND NOT EXISTS (
                   SELECT 1 FROM worker_instances w
                   WHERE w.id = x.worker_id AND w.heartbeat_at > now() - make_interval(secs => $1)))
              OR (x.status = 'pending' AND j.state = 'active' AND j.started_on < now() - make_interval(secs => $1))
           LIMIT $2 FOR UPDATE OF x SKIP LOCKED)
         RETURNING e.id, e.task_id, e.job_id, e.status`,
        [WORKER_STALE_AFTER_MS / 1000, BATCH, MAX_ATTEMPTS, INTERRUPTED_MESSAGE, CHECK_QUEUE],
      );
      if (rows.length === 0) return 0;
      await this.queue.complete(
        manager,
        CHECK_QUEUE,
        rows.flatMap((row) => (row.job_id ? [row.job_id] : [])),
      );
      const retried = rows.filter((row) => row.status === 'retrying');
      for (const row of retried) {
        const jobId = await this.queue.enqueueRun(manager, row.task_id, row.id);
        await manager.query('UPDATE executions SET job_id = $2 WHERE id = $1', [row.id, jobId]);
      }
      this.logger.warn({
        msg: 'Recovered checks of a stopped worker',
        retried: retried.length,
        failed: rows.length - retried.length,
      });
      return rows.length - retried.length;
    });
  }

  /**
   * Step 2: an in-flight execution whose job no longer lives can never finish: fail it. A running
   * one counts whatever its worker's health (a live worker whose result could not be stored).
   */
  async failOrphaned(): Promise<number> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE executions SET status = 'failed', completed_at = now(), error_message = $1, worker_id = NULL,
         result = jsonb_build_object('condition_met', NULL, 'error', $1::text),
         notification = '{"notify": false, "reason": "check_failed", "channels": [], "completes_task": false}'::jsonb
       WHERE id IN (
         SELECT e.id FROM executions e
         WHERE (e.status = 'running' OR (e.status IN ('pending', 'retrying') AND e.created_at < now() - interval '1 minute'))
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

  /**
   * Step 3: an active task whose check is overdue (by minutes, or that has no `next_run`), with no
   * live check job and no run in flight, gets its check back. Looking only at overdue tasks keeps
   * this an index range scan (ix_tasks_active_next_run) however many tasks there are.
   */
  async rescheduleUnscheduled(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const tasks = await queryRows<{ id: string }>(
        manager,
        `SELECT t.id FROM tasks t
         WHERE t.state = 'active'
           AND (t.next_run IS NULL OR t.next_run < now() - interval '2 minutes')
           AND NOT EXISTS (
             SELECT 1 FROM ${QUEUE_SCHEMA}.job j
             WHERE j.name = $1 AND j.id = t.check_job_id AND j.state IN ('created', 'retry', 'active'))
           AND NOT EXISTS (
             SELECT 1 FROM executions e
             WHERE e.task_id = t.id AND e.status IN ('pending', 'running', 'retrying'))
         ORDER BY t.id
         LIMIT $2 FOR UPDATE OF t SKIP LOCKED`,
        [CHECK_QUEUE, BATCH],
      );
      if (tasks.length === 0) return 0;
      await this.checkNow(
        manager,
        tasks.map((task) => task.id),
      );
      this.logger.warn({ msg: 'Rescheduled tasks that had no check', count: tasks.length });
      return tasks.length;
    });
  }

  /** Gives each task a check due now (its job id and next_run), in the caller's transaction. */
  private async checkNow(manager: EntityManager, taskIds: string[]): Promise<void> {
    const now = this.clock.now();
    const jobIds = await this.queue.scheduleChecks(
      manager,
      taskIds.map((taskId) => ({ taskId, runAt: now })),
    );
    await manager.query(
      `UPDATE tasks SET check_job_id = j.job_id, next_run = $3
       FROM unnest($1::uuid[], $2::uuid[]) AS j(task_id, job_id) WHERE tasks.id = j.task_id`,
      [taskIds, jobIds, now],
    );
  }
}
