import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { TransactionRunner } from '../../database/transaction-runner';
import { InjectConfig } from '../../config/config-slice';
import { DELIVERY_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { PeriodicJobs } from '../../common/periodic-jobs/periodic-jobs.service';
import { derivedJobId, webhookIdFor, type DeliveryAttemptJobData } from './delivery-job';
import { DeliveryRecoveryRepository } from './delivery-recovery.repository';
import { schedulerConfig, type SchedulerConfig } from '../../scheduler/scheduler.config';

const SWEEP_INTERVAL_MS = 10_000;
const REQUEUE_EVERY_N_SWEEPS = 3;
/** Older than the delivery queue's expiry plus its first retry: the queue had its chance. */
const ORPHANED_AFTER_SECONDS = 180;
const MAX_RECOVERIES = 5;
const BATCH = 200;
const RELEASE_BATCH = 5000;
export const GAVE_UP_MESSAGE = 'Delivery abandoned after its job was lost repeatedly';

/**
 * Brings back delivery work that a dead process left behind, by time rather than by hope
 * (docs/architecture.md):
 *  1. delivery jobs that a stopped worker had fetched go back to the queue at once, instead of
 *     waiting for the queue's expiry (`releaseJobsOfStoppedWorkers`);
 *  2. deliveries that are neither finished nor backed by a live queue job (the job failed for
 *     good after repeated crashes, or was deleted by hand) get a new job, so a delivery that
 *     started is never silently dropped (`requeueOrphanedDeliveries`).
 */
@Injectable()
export class DeliveryRecoverySweeper implements OnApplicationBootstrap {
  private sweeps = 0;
  /** Start of the oldest live worker at the last look (see `releaseJobsOfStoppedWorkers`). */
  private oldestLiveStart: number | null = null;

  constructor(
    private readonly transactions: TransactionRunner,
    @InjectConfig(schedulerConfig) private readonly config: SchedulerConfig,
    private readonly queue: JobQueueService,
    private readonly repository: DeliveryRecoveryRepository,
    @InjectPinoLogger(DeliveryRecoverySweeper.name) private readonly logger: PinoLogger,
    private readonly jobs: PeriodicJobs,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.workerEnabled)
      this.jobs.every('delivery-recovery', SWEEP_INTERVAL_MS, () => this.sweep());
  }

  private async sweep(): Promise<void> {
    try {
      await this.releaseJobsOfStoppedWorkers();
      this.sweeps += 1;
      if (this.sweeps % REQUEUE_EVERY_N_SWEEPS === 0) await this.requeueOrphanedDeliveries();
    } catch (error) {
      this.logger.warn({ err: error }, 'Delivery sweep failed');
    }
  }

  /**
   * A delivery job taken before the oldest live worker started was taken by a worker that is no
   * longer alive (it was running when it took the job, so it started earlier still): it goes
   * back to the queue now. Nothing per job needs to be written for this; the scan of active jobs
   * only runs when the oldest live start moves, that is when a worker stopped (or at start-up).
   * Returns how many jobs went back.
   */
  async releaseJobsOfStoppedWorkers(): Promise<number> {
    const oldest = (await this.repository.findOldestLiveWorkerStart())?.getTime() ?? null;
    if (oldest === null || oldest === this.oldestLiveStart) return 0;
    const jobs = await this.repository.findDeliveryJobsStartedBefore(
      new Date(oldest),
      RELEASE_BATCH,
    );
    if (jobs.length > 0) {
      await this.queue.fail(DELIVERY_QUEUE, jobs, 'The worker running this delivery stopped');
      this.logger.warn({ count: jobs.length }, 'Released deliveries of a stopped worker');
    }
    // A full batch may have left more behind: look again next time.
    if (jobs.length < RELEASE_BATCH) this.oldestLiveStart = oldest;
    return jobs.length;
  }

  /** Returns how many deliveries got a new job (or were given up). */
  async requeueOrphanedDeliveries(olderThanSeconds = ORPHANED_AFTER_SECONDS): Promise<number> {
    return this.transactions.run(async (manager) => {
      const rows = await this.repository.lockOrphanedDeliveries(manager, olderThanSeconds, BATCH);
      if (rows.length === 0) return 0;
      const giveUp = rows.filter((row) => row.recoveries >= MAX_RECOVERIES);
      const requeue = rows.filter((row) => row.recoveries < MAX_RECOVERIES);
      const jobs = requeue.map((row) => {
        // `sending`: the attempt's outcome was never recorded, so that attempt runs again (its
        // claim is taken over and the email sent again). `retry_scheduled`: the next one.
        const attempt = row.state === 'sending' ? row.attempt : row.attempt + 1;
        return {
          id: derivedJobId('delivery-recovery', row.id, attempt, row.recoveries + 1),
          data: {
            executionId: row.execution_id,
            taskId: row.task_id,
            channel: row.channel,
            event: row.event,
            deliveryId: row.id,
            attempt,
            webhookId: webhookIdFor(row.id),
          } satisfies DeliveryAttemptJobData,
        };
      });
      await this.queue.enqueueDeliveries(manager, jobs);
      await this.repository.assignRecoveryJobs(
        manager,
        jobs.map((job) => ({ deliveryId: job.data.deliveryId, jobId: job.id })),
      );
      await this.repository.abandonDeliveries(
        manager,
        giveUp.map((row) => row.id),
        GAVE_UP_MESSAGE,
      );
      this.logger.warn(
        { requeued: requeue.length, abandoned: giveUp.length },
        'Recovered deliveries whose queue job was lost',
      );
      return rows.length;
    });
  }
}
