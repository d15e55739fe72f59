import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { EntityManager } from 'typeorm';
import { BatchCommitter } from '../../common/batching/batch-committer';
import { TransactionRunner } from '../../database/transaction-runner';
import { MetricsService } from '../../metrics/metrics.service';
import { DELIVERY_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import { ChannelHealth } from '../channel-health/channel-health';
import type { AttemptOutcome } from './attempt-outcome';
import type { DeliveryState } from './notification-delivery.entity';
import { deliveryWrite, sendRecordOf, type ClaimedAttempt } from './claimed-attempt';
import { attemptJobId, type DeliveryAttemptJobData } from './delivery-job';
import {
  NotificationDeliveryRepository,
  type SendRecordWrite,
} from './notification-delivery.repository';
import { RetrySchedule } from './retry-schedule';

/** Outcomes are written in groups of at most this many (one transaction each)... */
const MAX_RECORD_BATCH = 256;
/** ...by up to this many transactions at once: commits overlap instead of queueing. */
const PARALLEL_FLUSHES = 3;
const RECORD_TRIES = 4;

interface AttemptRecord {
  claim: ClaimedAttempt;
  outcome: AttemptOutcome;
  attemptedAt: Date;
  /** Set once written by this worker: the state the delivery took. */
  recordedState?: DeliveryState;
}

interface NextAttempt {
  id: string;
  startAfter: Date;
  data: DeliveryAttemptJobData;
}

/**
 * Records what attempts came to: the delivery's new state, the send record, the next attempt's
 * job and the completion of this one commit together, so a crash cannot separate them.
 */
@Injectable()
export class DeliveryOutcomeRecorder {
  /**
   * Grouping is what keeps the database from being the bottleneck at thousands of deliveries a
   * second.
   */
  private readonly committer: BatchCommitter<AttemptRecord>;

  constructor(
    transactions: TransactionRunner,
    private readonly retries: RetrySchedule,
    private readonly queue: JobQueueService,
    private readonly repository: NotificationDeliveryRepository,
    private readonly worker: WorkerIdentity,
    @InjectPinoLogger(DeliveryOutcomeRecorder.name) private readonly logger: PinoLogger,
    private readonly metrics: MetricsService,
    private readonly health: ChannelHealth,
  ) {
    this.committer = new BatchCommitter(
      transactions,
      (manager, records) => this.writeOutcomes(manager, records),
      { maxBatch: MAX_RECORD_BATCH, parallel: PARALLEL_FLUSHES, tries: RECORD_TRIES },
    );
  }

  /**
   * Queues the outcome for the next group commit and resolves once it is durable. Called in the
   * attempt's log context: a failure it records is logged with the delivery's ids.
   */
  recordSendAttempt(
    claim: ClaimedAttempt,
    outcome: AttemptOutcome,
    attemptedAt: Date,
  ): Promise<void> {
    const record: AttemptRecord = { claim, outcome, attemptedAt };
    return this.committer.submit(record).then(async () => {
      this.metrics.recordDelivery(claim.channel, outcome.status);
      if (record.recordedState === 'failed') {
        this.logger.warn(
          { channel: claim.channel, attempt: claim.attempt, error: outcome.errorMessage },
          'Notification delivery failed',
        );
      }
      if (record.recordedState)
        await this.health.afterDelivery(claim, record.recordedState, outcome.errorMessage);
    });
  }

  private async writeOutcomes(manager: EntityManager, group: AttemptRecord[]): Promise<void> {
    // Lock order (docs/architecture.md, "One lock order"): the tasks first (a delete or a
    // deactivation of one waits, or went first and its deliveries are then found gone or final),
    // then deliveries and jobs.
    await this.repository.holdTasks(
      manager,
      group.map((record) => record.claim.taskId),
    );
    const decided = group.map((record) => {
      const { claim, outcome } = record;
      const decision = this.retries.after(outcome, claim.attempt);
      const next: NextAttempt | null =
        decision.state === 'retry_scheduled'
          ? {
              id: attemptJobId(claim.deliveryId, claim.attempt + 1),
              startAfter: decision.startAfter,
              data: {
                executionId: claim.executionId,
                taskId: claim.taskId,
                channel: claim.channel,
                event: claim.event,
                deliveryId: claim.deliveryId,
                attempt: claim.attempt + 1,
                webhookId: claim.webhookId,
              },
            }
          : null;
      return { ...record, original: record, next, state: decision.state };
    });

    const { recorded, gone } = await this.repository.recordAttempts(
      manager,
      this.worker.id,
      decided.map((record) =>
        deliveryWrite(
          record.claim,
          record.state,
          record.next?.id ?? record.claim.jobId,
          record.outcome.errorMessage,
        ),
      ),
      decided.map((record) => sendRecord(record)),
    );
    const mine = decided.filter((record) => recorded.has(record.claim.deliveryId));
    for (const record of mine) record.original.recordedState = record.state;
    await this.queue.enqueueDeliveries(
      manager,
      mine.flatMap((record) => (record.next ? [record.next] : [])),
    );
    // Jobs of deleted tasks complete too. An attempt someone else recorded first (its job ran
    // twice at once) is left to them.
    await this.queue.complete(
      manager,
      DELIVERY_QUEUE,
      decided
        .filter(
          (record) => recorded.has(record.claim.deliveryId) || gone.has(record.claim.deliveryId),
        )
        .map((record) => record.claim.jobId),
    );
  }
}

function sendRecord({ claim, outcome, attemptedAt }: AttemptRecord): SendRecordWrite {
  return sendRecordOf(claim, outcome.status, outcome.errorMessage, attemptedAt);
}
