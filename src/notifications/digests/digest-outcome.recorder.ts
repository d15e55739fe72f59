import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BatchCommitter } from '../../common/batching/batch-committer';
import { TransactionRunner } from '../../database/transaction-runner';
import { DIGEST_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import { NotificationDeliveryRepository } from '../delivery/notification-delivery.repository';
import type { DigestJobRecord } from './claimed-digest';
import { DigestRepository } from './digest.repository';

/** Outcomes are written in groups of at most this many jobs (one transaction each). */
const MAX_RECORD_BATCH = 128;
const PARALLEL_FLUSHES = 2;

/**
 * Records what digest attempts came to: the digest's new state, its `digest` send record, the
 * `held` records of its events updated, its next attempt's job and the completion of this one
 * commit together.
 */
@Injectable()
export class DigestOutcomeRecorder {
  private readonly committer: BatchCommitter<DigestJobRecord>;

  constructor(
    transactions: TransactionRunner,
    private readonly queue: JobQueueService,
    private readonly repository: DigestRepository,
    private readonly deliveries: NotificationDeliveryRepository,
    private readonly worker: WorkerIdentity,
  ) {
    this.committer = new BatchCommitter(
      transactions,
      (manager, records) => this.writeRecords(manager, records),
      { maxBatch: MAX_RECORD_BATCH, parallel: PARALLEL_FLUSHES },
    );
  }

  /** Queues the job's outcomes for the next group commit and resolves once they are durable. */
  recordJob(job: DigestJobRecord): Promise<void> {
    return this.committer.submit(job);
  }

  /**
   * Records outcomes with their send records and next attempts, and completes the jobs, in one
   * transaction: tasks first, then digests, deliveries, send records and jobs. An attempt this
   * worker no longer holds the claim of (recorded by another run) writes nothing.
   */
  private async writeRecords(manager: EntityManager, jobs: DigestJobRecord[]): Promise<void> {
    const attempts = jobs.flatMap((job) => job.attempts);
    const tasks = await this.deliveries.holdTasks(
      manager,
      attempts.flatMap((attempt) => (attempt.send ? [attempt.send.taskId] : [])),
    );
    const recorded = await this.repository.recordOutcomes(
      manager,
      this.worker.id,
      attempts.map((attempt) => attempt.outcome),
    );
    const mine = attempts.filter((attempt) => recorded.has(attempt.outcome.id));
    await this.deliveries.insertSends(
      manager,
      mine.flatMap((attempt) =>
        attempt.send && tasks.has(attempt.send.taskId) ? [attempt.send] : [],
      ),
    );
    await this.queue.enqueueDigests(
      manager,
      mine.flatMap((attempt) => (attempt.next ? [attempt.next] : [])),
    );
    await this.queue.complete(
      manager,
      DIGEST_QUEUE,
      jobs.map((job) => job.jobId),
    );
  }
}
