import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { CHECK_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { WORKER_STALE_AFTER_MS } from '../../scheduler/worker-heartbeat.service';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import { Clock } from '../../common/clock/clock';
import { INTERRUPTED_MESSAGE } from '../decisions/check-errors';
import { CheckScheduleRepository } from './check-schedule.repository';
import { ExecutionRepository } from '../execution.repository';
import { ExecutionSweepRepository } from '../execution-sweep.repository';

const RESCHEDULE_EVERY_N_SWEEPS = 12;
const BATCH = 200;
/** A check whose worker went silent on this many attempts is ended rather than tried again. */
export const MAX_ATTEMPTS = 3;

/**
 * Finds work that a dead process left behind, by time rather than by hope (docs/architecture.md):
 *  0. check jobs a dead worker took but never started go back to the queue;
 *  1. running executions whose worker stopped heartbeating go back to the queue (`retrying`), to
 *     be ended as interrupted once they used their attempts;
 *  2. in-flight executions whose job is gone or finished are failed (never left `running`), even
 *     under a live worker;
 *  3. active tasks with no live check job get one, so no task silently stops being checked.
 */
@Injectable()
export class StaleExecutionSweeper {
  private sweeps = 0;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly queue: JobQueueService,
    @InjectPinoLogger(StaleExecutionSweeper.name) private readonly logger: PinoLogger,
    private readonly clock: Clock,
    private readonly executions: ExecutionRepository,
    private readonly executionSweeps: ExecutionSweepRepository,
    private readonly schedule: CheckScheduleRepository,
    private readonly worker: WorkerIdentity,
  ) {}

  async sweep(): Promise<void> {
    try {
      await this.requeueUnclaimedChecks();
      await this.requeueAbandoned();
      const failed = await this.failOrphaned();
      this.sweeps += 1;
      if (failed > 0 || this.sweeps % RESCHEDULE_EVERY_N_SWEEPS === 1)
        await this.rescheduleUnscheduled();
    } catch (error) {
      this.logger.warn({ err: error }, 'Sweep failed');
    }
  }

  /**
   * Step 0: a scheduled check job taken from the queue but never claimed (its worker died between
   * the fetch and the claim, a window of milliseconds) is replaced by a new job due now, instead of
   * waiting for the queue's expiry.
   */
  async requeueUnclaimedChecks(): Promise<number> {
    return this.transactions.run(async (manager) => {
      const candidates = await this.schedule.findUnclaimedChecks(
        manager,
        WORKER_STALE_AFTER_MS / 1000,
        BATCH,
      );
      if (candidates.length === 0) return 0;
      // Lock order (docs/architecture.md, "One lock order"): the tasks first, then their jobs.
      const taskIds = await this.schedule.lockActiveAwaiting(
        manager,
        candidates.map((job) => ({ taskId: job.task_id, jobId: job.id })),
      );
      const jobs = new Set(
        await this.schedule.lockUnclaimedChecks(
          manager,
          candidates.map((job) => job.id),
        ),
      );
      if (jobs.size === 0) return 0;
      await this.queue.complete(manager, CHECK_QUEUE, [...jobs]);
      const awaiting = new Set(taskIds);
      await this.checkNow(
        manager,
        candidates
          .filter((job) => jobs.has(job.id) && awaiting.has(job.task_id))
          .map((job) => job.task_id),
      );
      this.logger.warn({ count: jobs.size }, 'Requeued checks taken by a stopped worker');
      return jobs.size;
    });
  }

  /**
   * Step 1: a running execution whose worker is silent (or a pending one whose job was taken by a
   * worker that died before starting it) goes straight back to the queue with a new job, keeping
   * its execution row. After MAX_ATTEMPTS, the job ends it as interrupted instead of running it
   * again: as a failed check, through the outcome path of every check, so its task moves on to
   * its next check like after any failure rather than being checked again at once (docs/
   * architecture.md, "Nothing is lost when a process dies"). This worker's own checks are never
   * taken: it is alive, and runs them still. Returns how many went back.
   */
  async requeueAbandoned(): Promise<number> {
    return this.transactions.run(async (manager) => {
      const rows = await this.executionSweeps.releaseAbandoned(manager, {
        staleAfterSeconds: WORKER_STALE_AFTER_MS / 1000,
        limit: BATCH,
        maxAttempts: MAX_ATTEMPTS,
        message: INTERRUPTED_MESSAGE,
        workerId: this.worker.id,
      });
      if (rows.length === 0) return 0;
      await this.queue.complete(
        manager,
        CHECK_QUEUE,
        rows.flatMap((row) => (row.job_id ? [row.job_id] : [])),
      );
      for (const row of rows) {
        const jobId = await this.queue.enqueueRun(manager, row.task_id, row.id, row.exhausted);
        await this.executions.setJobId(manager, row.id, jobId);
      }
      const ended = rows.filter((row) => row.exhausted).length;
      this.logger.warn(
        { retried: rows.length - ended, ended },
        'Recovered checks of a stopped worker',
      );
      return rows.length;
    });
  }

  /**
   * Step 2: an in-flight execution whose job no longer lives can never finish: fail it. A running
   * one counts whatever its worker's health (a live worker whose result could not be stored).
   */
  async failOrphaned(): Promise<number> {
    const failed = await this.executionSweeps.failOrphaned(INTERRUPTED_MESSAGE, BATCH);
    if (failed > 0) this.logger.warn({ count: failed }, 'Failed interrupted checks');
    return failed;
  }

  /**
   * Step 3: an active task whose check is overdue, with no live check job and no run in flight,
   * gets its check back.
   */
  async rescheduleUnscheduled(): Promise<number> {
    return this.transactions.run(async (manager) => {
      const taskIds = await this.schedule.lockUnscheduled(manager, BATCH);
      if (taskIds.length === 0) return 0;
      await this.checkNow(manager, taskIds);
      this.logger.warn({ count: taskIds.length }, 'Rescheduled tasks that had no check');
      return taskIds.length;
    });
  }

  /** Gives each task a check due now (its job id and next_run), in the caller's transaction. */
  private async checkNow(manager: EntityManager, taskIds: string[]): Promise<void> {
    if (taskIds.length === 0) return;
    const now = this.clock.now();
    const jobIds = await this.queue.scheduleChecks(
      manager,
      taskIds.map((taskId) => ({ taskId, runAt: now })),
    );
    await this.schedule.assignChecks(manager, taskIds, jobIds, now);
  }
}
