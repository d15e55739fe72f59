import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { EntityManager } from 'typeorm';
import { LogContext } from '../../common/logging/log-context';
import { retryWhileDatabaseUnavailable } from '../../database/database-outage';
import { DELIVERY_QUEUE, JobQueueService, type QueueJob } from '../../scheduler/job-queue.service';
import { WorksQueue } from '../../scheduler/queue-declaration';
import { NotificationChannelRegistry } from '../channels/channel-registry';
import type { AttemptOutcome } from './attempt-outcome';
import { deliveryLogFields, type ClaimedAttempt } from './claimed-attempt';
import { DeliveryAttemptRunner } from './delivery-attempt.runner';
import { toDeliveryAttempt, type DeliveryAttemptJobData } from './delivery-job';
import { DeliveryOutcomeRecorder } from './delivery-outcome.recorder';
import { DeliveryPlanner } from './delivery-planner';
import { DELIVERY_JOB_EXPIRY_SECONDS, DELIVERY_QUEUE_DECLARATION } from './delivery.queue';
import { NotificationDeliveryRepository } from './notification-delivery.repository';

/**
 * Delivers notifications: one job is one attempt of one delivery (an execution through one
 * channel). Per batch of jobs:
 *  1. plan: one read finds each attempt's execution, task and delivery state; jobs with nothing
 *     to do complete, the gate holds or skips what attention says, and email attempts are claimed
 *     (committed) before anything is sent (`DeliveryPlanner`);
 *  2. send: each attempt through its channel (email over SMTP, every other channel over HTTP),
 *     all at once (`DeliveryAttemptRunner`);
 *  3. record: the outcomes, in groups (`DeliveryOutcomeRecorder`).
 */
@Injectable()
export class NotificationDeliveryService {
  constructor(
    private readonly queue: JobQueueService,
    private readonly repository: NotificationDeliveryRepository,
    private readonly planner: DeliveryPlanner,
    private readonly channels: NotificationChannelRegistry,
    private readonly runner: DeliveryAttemptRunner,
    private readonly recorder: DeliveryOutcomeRecorder,
    @InjectPinoLogger(NotificationDeliveryService.name) private readonly logger: PinoLogger,
    private readonly logContext: LogContext,
  ) {}

  /**
   * Cancels every queued, retrying or under-way delivery of a user's tasks in the caller's
   * transaction (account deactivation): their jobs leave the queue and the deliveries end as
   * `cancelled`. An attempt already talking to its receiver finishes, but its outcome is not
   * recorded and no further attempt follows.
   */
  async cancelDeliveriesOfUser(
    manager: EntityManager,
    userId: string,
    reason: string,
  ): Promise<void> {
    const jobIds = await this.repository.cancelOpenDeliveriesOfUser(manager, userId, reason);
    await this.queue.cancelDeliveries(manager, jobIds);
  }

  /**
   * Runs a batch of delivery jobs to the end; `onSettled` is called once per job as soon as that
   * job is done (so a slow receiver holds only its own slot).
   */
  @WorksQueue(DELIVERY_QUEUE_DECLARATION)
  async deliverBatch(
    jobs: Array<QueueJob<DeliveryAttemptJobData>>,
    onSettled: () => void = () => undefined,
  ): Promise<void> {
    const attempts = jobs.map(toDeliveryAttempt);
    let toSend: ClaimedAttempt[];
    try {
      toSend = await this.planner.plan(attempts);
    } catch (error) {
      this.logger.warn({ jobs: jobs.length, err: error }, 'Planning deliveries failed');
      // The queue brings the jobs back after its retry delay, as soon as the database answers.
      await this.queue.failOnceReachable(
        DELIVERY_QUEUE,
        attempts.map((attempt) => attempt.jobId),
        'planning failed',
        releaseDeadline(),
      );
      jobs.forEach(() => onSettled());
      return;
    }
    for (let index = toSend.length; index < jobs.length; index++) onSettled();
    // Each attempt runs in its log context: every line logged for it carries its ids.
    await Promise.all(
      toSend.map((attempt) =>
        this.logContext
          .run(deliveryLogFields(attempt), () => this.sendAndRecord(attempt))
          .finally(() => onSettled()),
      ),
    );
  }

  /**
   * Sends one attempt and records its outcome. An attempt of a claimed channel (email) is claimed
   * (committed) and only then sent, inside one of the channel's slots, so time spent waiting for
   * a slot is not part of the attempt: if the job expires meanwhile and runs elsewhere, one of the
   * two claims wins and the other run sends nothing.
   */
  private async sendAndRecord(claim: ClaimedAttempt): Promise<void> {
    const slots = this.channels.get(claim.channel).claimedSlots;
    if (!slots) {
      await this.send(claim);
      return;
    }
    try {
      await slots.run(async () => {
        if (await this.planner.claim(claim)) await this.send(claim);
      });
    } catch (error) {
      // The claim could not be written: nothing was sent; the queue runs the job again.
      this.logger.warn({ err: error }, 'Claiming a delivery failed');
      await this.queue.failOnceReachable(
        DELIVERY_QUEUE,
        claim.jobId,
        'claim failed',
        releaseDeadline(),
      );
    }
  }

  private async send(claim: ClaimedAttempt): Promise<void> {
    const { outcome, attemptedAt } = await this.runner.runAttempt(claim);
    await this.recordOrRelease(claim, outcome, attemptedAt);
  }

  private async recordOrRelease(
    claim: ClaimedAttempt,
    outcome: AttemptOutcome,
    attemptedAt: Date,
  ): Promise<void> {
    try {
      // An outage that began while the attempt was out: the outcome is recorded once the
      // database answers again (the attempt is not made twice), within the job's expiry.
      await retryWhileDatabaseUnavailable(
        () => this.recorder.recordSendAttempt(claim, outcome, attemptedAt),
        { until: releaseDeadline() },
      );
    } catch (error) {
      this.logger.error({ err: error }, 'Recording a delivery attempt failed');
      await this.queue.failOnceReachable(
        DELIVERY_QUEUE,
        claim.jobId,
        'recording failed',
        releaseDeadline(),
      );
    }
  }
}

/**
 * How long a worker keeps trying to record or release a job while the database is out of reach:
 * up to the job's expiry, after which the queue brings the job back by itself.
 */
function releaseDeadline(): number {
  return Date.now() + DELIVERY_JOB_EXPIRY_SECONDS * 1000;
}
