import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import { InjectConfig } from '../config/config-slice';
import { sqlStateOf } from '../database/database-errors';
import { retryWhileDatabaseUnavailable } from '../database/database-outage';
import { QueueRepository } from './queue.repository';
import {
  CHECK_QUEUE,
  DELIVERY_QUEUE,
  DIGEST_QUEUE,
  QUEUE_SCHEMA,
  type CheckJobData,
} from './queues';
import { schedulerConfig, type SchedulerConfig } from './scheduler.config';

export {
  CHECK_QUEUE,
  DELIVERY_QUEUE,
  OWNER_NOTICE_QUEUE,
  DIGEST_QUEUE,
  QUEUE_SCHEMA,
  type CheckJobData,
} from './queues';

export type QueueJob<T> = PgBoss.JobWithMetadata<T>;

/** A queue change that failed, with the database's SQLSTATE when it had one. */
export class QueueOperationError extends Error {
  readonly code: string | undefined;

  constructor(operation: string, cause: unknown) {
    super(`${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'QueueOperationError';
    this.code = sqlStateOf(cause);
  }
}

/**
 * The durable job queue (pg-boss in PostgreSQL). Every change that goes with a database change
 * takes the caller's transaction (`manager`), so a task and its job commit or roll back together:
 * a job never runs for a task change that was rolled back, and no task waits for a job never queued.
 */
@Injectable()
export class JobQueueService {
  private readonly boss: PgBoss;
  /** Between a finished start and the beginning of a stop. */
  private running = false;

  constructor(
    private readonly repository: QueueRepository,
    @InjectConfig(schedulerConfig) private readonly config: SchedulerConfig,
    @InjectPinoLogger(JobQueueService.name) private readonly logger: PinoLogger,
  ) {
    this.boss = new PgBoss({
      db: repository.poolConnection(),
      schema: QUEUE_SCHEMA,
      // API-only instances send and cancel jobs but leave maintenance to the workers.
      supervise: this.config.workerEnabled,
      schedule: false,
      migrate: true,
      maintenanceIntervalSeconds: 30,
      archiveCompletedAfterSeconds: 3600,
      deleteAfterDays: 7,
    });
    this.boss.on('error', (error: Error) => this.logger.warn({ err: error }, 'Job queue error'));
    this.boss.on('stopped', () => (this.running = false));
  }

  /** Starts the queue (`DeclaredQueues`, before it creates the declared queues). */
  async start(): Promise<void> {
    await this.boss.start();
    this.running = true;
  }

  /**
   * Creates a queue, or brings an existing one to this version's options (create is a no-op for
   * an existing queue), and gives its waiting jobs at least the queue's expiry.
   */
  async createQueue(options: PgBoss.Queue & { expireInSeconds: number }): Promise<void> {
    await this.boss.createQueue(options.name, options);
    await this.boss.updateQueue(options.name, options);
    await this.repository.raiseWaitingExpiry(options.name, options.expireInSeconds);
  }

  /** Stops the queue once its workers have stopped (`DeclaredQueues`). */
  async stop(): Promise<void> {
    this.running = false;
    await this.boss.stop({ graceful: true, close: false, wait: true, timeout: 10_000 });
  }

  /** Resolves when the queue is running and its tables answer (`GET /health`). */
  async ping(): Promise<void> {
    if (!this.running) throw new Error('The job queue is not running');
    if (!(await this.boss.getQueue(CHECK_QUEUE))) throw new Error('The check queue is missing');
  }

  /**
   * A queue change that failed names the operation; the caller's transaction then rolls back.
   * The error keeps its SQLSTATE (`code`, and the original as `cause`), so a lost lock conflict
   * is still retried by TransactionRunner.
   */
  private async guard<T>(operation: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new QueueOperationError(operation, error);
    }
  }

  /** Schedules the next check of a task; returns the job id to store on the task. */
  async scheduleCheck(
    manager: EntityManager,
    taskId: string,
    runAt: Date,
    jobId?: string,
  ): Promise<string> {
    return (await this.scheduleChecks(manager, [{ taskId, runAt, jobId }]))[0];
  }

  /**
   * Schedules checks for several tasks in one statement; returns their job ids in order. A check
   * may bring its job id, for a task row that names its check before the job is queued.
   */
  scheduleChecks(
    manager: EntityManager,
    checks: Array<{ taskId: string; runAt: Date; jobId?: string }>,
  ): Promise<string[]> {
    if (checks.length === 0) return Promise.resolve([]);
    return this.guard('scheduling the check', async () => {
      const jobs = checks.map((check) => ({
        id: check.jobId ?? randomUUID(),
        name: CHECK_QUEUE,
        data: { taskId: check.taskId } satisfies CheckJobData,
        singletonKey: check.taskId,
        startAfter: check.runAt.toISOString(),
      }));
      await this.boss.insert(jobs, { db: this.repository.transactionConnection(manager) });
      return jobs.map((job) => job.id);
    });
  }

  /**
   * Queues a run of an execution row (one requested through the API, created in the same
   * transaction, or one taken back from a silent worker, `interrupted` when it used its attempts).
   */
  enqueueRun(
    manager: EntityManager,
    taskId: string,
    executionId: string,
    interrupted = false,
  ): Promise<string> {
    const data: CheckJobData = { taskId, executionId, ...(interrupted ? { interrupted } : {}) };
    return this.guard('queueing the run', async () => {
      const id = await this.boss.send(CHECK_QUEUE, data, {
        singletonKey: taskId,
        priority: 10,
        db: this.repository.transactionConnection(manager),
      });
      if (!id) throw new Error('the queue did not accept the job');
      return id;
    });
  }

  /** Removes scheduled checks (pause, complete, delete). A job already gone is fine. */
  removeCheck(manager: EntityManager, jobId: string | null): Promise<void> {
    return this.removeChecks(manager, jobId ? [jobId] : []);
  }

  removeChecks(manager: EntityManager, jobIds: string[]): Promise<void> {
    if (jobIds.length === 0) return Promise.resolve();
    return this.guard('removing the scheduled check', async () => {
      await this.boss.deleteJob(CHECK_QUEUE, jobIds, {
        db: this.repository.transactionConnection(manager),
      });
    });
  }

  /**
   * Queues delivery jobs with ids chosen by the caller, so a repeated insert is a no-op.
   * `startAfter` delays a job (the next attempt of a webhook).
   */
  enqueueDeliveries(
    manager: EntityManager,
    jobs: Array<{ id: string; data: object; startAfter?: Date }>,
  ): Promise<void> {
    return this.enqueueJobs(manager, DELIVERY_QUEUE, jobs);
  }

  /** Queues jobs of `queue` with ids chosen by the caller, in the caller's transaction. */
  enqueueJobs(
    manager: EntityManager,
    queue: string,
    jobs: Array<{ id: string; data: object; startAfter?: Date }>,
  ): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    return this.guard(`queueing ${queue} jobs`, async () => {
      await this.boss.insert(
        jobs.map((job) => ({
          id: job.id,
          name: queue,
          data: job.data,
          startAfter: job.startAfter?.toISOString(),
        })),
        { db: this.repository.transactionConnection(manager) },
      );
    });
  }

  /**
   * Queues digest jobs with ids chosen by the caller (one per user and period, one per retry of
   * a digest), so a repeated insert is a no-op; each waits for its `startAfter`.
   */
  enqueueDigests(
    manager: EntityManager,
    jobs: Array<{ id: string; data: object; startAfter: Date }>,
  ): Promise<void> {
    return this.enqueueJobs(manager, DIGEST_QUEUE, jobs);
  }

  /** Cancels delivery jobs, under way ones included (their outcome is then not recorded). */
  cancelDeliveries(manager: EntityManager, jobIds: string[]): Promise<void> {
    if (jobIds.length === 0) return Promise.resolve();
    return this.guard('cancelling notification deliveries', async () => {
      await this.boss.cancel(DELIVERY_QUEUE, jobIds, {
        db: this.repository.transactionConnection(manager),
      });
    });
  }

  fetch<T>(queue: string, batchSize: number): Promise<Array<QueueJob<T>>> {
    return this.boss.fetch<T>(queue, { batchSize, includeMetadata: true });
  }

  async complete(manager: EntityManager, queue: string, jobIds: string | string[]): Promise<void> {
    const ids = Array.isArray(jobIds) ? jobIds : [jobIds];
    if (ids.length === 0) return;
    await this.settle(
      'complete',
      queue,
      ids,
      {},
      { db: this.repository.transactionConnection(manager) },
    );
  }

  /** Marks jobs failed: the queue retries them (with backoff) while retries remain. */
  async fail(
    queue: string,
    jobIds: string | string[],
    reason: string,
    manager?: EntityManager,
  ): Promise<void> {
    const ids = Array.isArray(jobIds) ? jobIds : [jobIds];
    if (ids.length === 0) return;
    const options = manager ? { db: this.repository.transactionConnection(manager) } : undefined;
    await this.settle('fail', queue, ids, { message: reason }, options);
  }

  /**
   * Sends jobs back to the queue (`fail`: retried after the queue's delay) even when the database
   * is out of reach right now: the call is tried again every second until `until` (epoch ms), so
   * jobs interrupted by an outage resume as soon as it ends instead of waiting for their expiry
   * (docs/architecture.md, "A database outage is waited out"). Resolves false when the jobs could
   * not be failed (they then expire).
   */
  async failOnceReachable(
    queue: string,
    jobIds: string | string[],
    reason: string,
    until: number,
  ): Promise<boolean> {
    try {
      await retryWhileDatabaseUnavailable(() => this.fail(queue, jobIds, reason), {
        until,
        stopped: () => !this.running,
      });
      return true;
    } catch (error) {
      this.logger.warn({
        msg: 'Sending jobs back to the queue failed',
        queue,
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }

  /**
   * pg-boss takes `(name, ids, data, options)` at run time, but its typings omit `data` next to an
   * id array; this keeps the one cast in one place.
   */
  private settle(
    action: 'complete' | 'fail',
    queue: string,
    ids: string[],
    data: object,
    options: PgBoss.ConnectionOptions | undefined,
  ): Promise<unknown> {
    const boss = this.boss as unknown as Record<
      typeof action,
      (
        name: string,
        ids: string[],
        data: object,
        options?: PgBoss.ConnectionOptions,
      ) => Promise<unknown>
    >;
    return boss[action](queue, ids, data, options);
  }
}
