import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import type { EntityManager } from 'typeorm';
import { LogContext } from '../../common/logging/log-context';
import { TransactionRunner } from '../../database/transaction-runner';
import { retryWhileDatabaseUnavailable } from '../../database/database-outage';
import { DELIVERY_QUEUE, JobQueueService, type QueueJob } from '../../scheduler/job-queue.service';
import { WorksQueue } from '../../scheduler/queue-declaration';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import { failedAttempt, type AttemptOutcome } from './attempt-outcome';
import { NotificationChannelRegistry } from '../channels/channel-registry';
import { channelOwner } from '../channels/notification-channel';
import { deliveryLogFields, deliveryWrite, type ClaimedAttempt } from './claimed-attempt';
import { CHANNEL_REMOVED, DeliveryAttemptRunner } from './delivery-attempt.runner';
import {
  toDeliveryAttempt,
  type DeliveryAttempt,
  type DeliveryAttemptJobData,
} from './delivery-job';
import { DeliveryOutcomeRecorder } from './delivery-outcome.recorder';
import { DELIVERY_JOB_EXPIRY_SECONDS, DELIVERY_QUEUE_DECLARATION } from './delivery.queue';
import type { NotificationConfig } from '../channels/channel-registry';
import type { NotificationContent } from '../content/notification-content';
import { FINAL_DELIVERY_STATES, type DeliveryState } from './notification-delivery.entity';
import {
  NotificationDeliveryRepository,
  type AttemptContextRow,
} from './notification-delivery.repository';
import { Clock } from '../../common/clock/clock';
import { AttentionGate, type GatedAttempt } from '../attention/attention-gate';

/**
 * Nothing is sent for an inactive user's task (docs/api.md, "Admin"). Deactivation cancels the
 * user's deliveries itself; this covers a job that meets an inactive user any other way.
 */
export const CANCELLED_INACTIVE_USER = 'Cancelled: the account is not active';

/**
 * An attempt settled without sending anything (the channel was removed from the task, or the
 * task's user is no longer active).
 */
interface DecidedAttempt {
  claim: ClaimedAttempt;
  outcome: AttemptOutcome;
  state: DeliveryState;
  attemptedAt: Date;
}

/**
 * Delivers notifications: one job is one attempt of one delivery (an execution through one
 * channel). Per batch of jobs:
 *  1. plan: one read finds each attempt's execution, task and delivery state; jobs with nothing
 *     to do complete, and email attempts are claimed (committed) before anything is sent;
 *  2. send: each attempt through its channel (email over SMTP, every other channel over HTTP),
 *     all at once (`DeliveryAttemptRunner`);
 *  3. record: the outcomes, in groups (`DeliveryOutcomeRecorder`).
 */
@Injectable()
export class NotificationDeliveryService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly queue: JobQueueService,
    private readonly repository: NotificationDeliveryRepository,
    private readonly channels: NotificationChannelRegistry,
    private readonly runner: DeliveryAttemptRunner,
    private readonly recorder: DeliveryOutcomeRecorder,
    private readonly worker: WorkerIdentity,
    @InjectPinoLogger(NotificationDeliveryService.name) private readonly logger: PinoLogger,
    private readonly logContext: LogContext,
    private readonly clock: Clock,
    private readonly gate: AttentionGate,
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
      toSend = await this.planAttempts(attempts);
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
   * Decides for each job whether an attempt goes out. A delivery already final, or already past
   * this attempt, completes the job untouched (a repeated job is a no-op); a channel removed
   * from the task ends the delivery as `skipped`; a task whose user is not active ends it as
   * `cancelled`, so no retry or recovery brings it back; an event of a digest config waits,
   * `held`, for its period's digest (DigestCapture).
   *
   * Every channel is at least once: an attempt cut short by a crash is made again by the
   * redelivered job with the same `webhook-id` or `Message-ID`, so a receiver following
   * Standard Webhooks, or a mail client, drops the repeat; nothing is lost.
   *
   * Webhooks are not claimed, which saves a write per webhook. Emails are claimed one by one
   * when they get an SMTP slot (`sendEmail`), so two runs of one job at once send one message.
   * A row found still `sending` for this very attempt was claimed by a run that died before
   * recording the outcome: the claim is taken over and the email sent again.
   */
  private async planAttempts(attempts: DeliveryAttempt[]): Promise<ClaimedAttempt[]> {
    const contexts = new Map(
      (await this.repository.loadAttemptContexts(attempts)).map((row) => [row.delivery_id, row]),
    );
    const finished: string[] = [];
    const decided: DecidedAttempt[] = [];
    const interrupted: string[] = [];
    const toSend: GatedAttempt[] = [];
    const seen = new Set<string>();
    const now = this.clock.now();

    for (const attempt of attempts) {
      const context = contexts.get(attempt.deliveryId);
      // No context: the task (and with it the execution) was deleted; nothing to send.
      if (
        !context ||
        seen.has(attempt.deliveryId) ||
        isStale(context, attempt, this.channels.get(attempt.channel).claimedSlots !== undefined)
      ) {
        finished.push(attempt.jobId);
        continue;
      }
      seen.add(attempt.deliveryId);
      const config = context.notifications.find((entry) => entry.type === attempt.channel);
      if (config && context.user_active) {
        toSend.push({ claim: this.prepareAttempt(attempt, context, config), context });
        continue;
      }
      // An email claim left by a dead worker: this worker takes it over to record the decision.
      if (context.delivery_state === 'sending') interrupted.push(attempt.deliveryId);
      decided.push({
        claim: this.prepareAttempt(attempt, context, null),
        ...(context.user_active
          ? { outcome: failedAttempt(CHANNEL_REMOVED, false), state: 'skipped' as const }
          : {
              outcome: failedAttempt(CANCELLED_INACTIVE_USER, false),
              state: 'cancelled' as const,
            }),
        attemptedAt: now,
      });
    }
    if (finished.length > 0 || decided.length > 0)
      await this.settle(finished, decided, interrupted);
    // What attention makes of the rest: some wait, some are skipped (docs/attention.md).
    return this.gate.admit(toSend);
  }

  /** Completes jobs with nothing to do and records the attempts settled without sending. */
  private async settle(
    finished: string[],
    decided: DecidedAttempt[],
    interrupted: string[],
  ): Promise<void> {
    await this.transactions.run(async (manager) => {
      // Lock order (docs/architecture.md, "One lock order"): tasks, then deliveries and jobs.
      await this.repository.holdTasks(manager, [...decided.map((item) => item.claim.taskId)]);
      await this.repository.takeOverAttempts(manager, this.worker.id, interrupted);
      await this.repository.recordAttempts(
        manager,
        this.worker.id,
        decided.map((item) =>
          deliveryWrite(item.claim, item.state, item.claim.jobId, item.outcome.errorMessage),
        ),
        [],
      );
      await this.queue.complete(manager, DELIVERY_QUEUE, [
        ...finished,
        ...decided.map((item) => item.claim.jobId),
      ]);
    });
  }

  private async sendAndRecord(claim: ClaimedAttempt): Promise<void> {
    const slots = this.channels.get(claim.channel).claimedSlots;
    if (slots) {
      try {
        await slots.run(() => this.sendClaimed(claim));
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
      return;
    }
    const attemptedAt = this.clock.now();
    const outcome = await this.runner.runAttempt(claim, attemptedAt);
    await this.recordOrRelease(claim, outcome, attemptedAt);
  }

  /**
   * Claims the attempt (committed) and only then sends it (email: talks to the SMTP server).
   * The claim is taken inside the channel's slot, so time spent waiting for a slot is not part
   * of the attempt: if the job expires meanwhile and runs elsewhere, one of the two claims wins
   * and the other run sends nothing. A claim still `sending` from an earlier run of this
   * attempt is taken over.
   */
  private async sendClaimed(claim: ClaimedAttempt): Promise<void> {
    const claimed = await this.transactions.run(async (manager) => {
      // The task was deleted since the plan: nothing to send, the job is done.
      if ((await this.repository.holdTasks(manager, [claim.taskId])).size === 0) {
        await this.queue.complete(manager, DELIVERY_QUEUE, claim.jobId);
        return new Set<string>();
      }
      return this.repository.claimAttempts(manager, this.worker.id, [
        deliveryWrite(claim, 'sending', claim.jobId, null),
      ]);
    });
    if (!claimed.has(claim.deliveryId)) return;
    const attemptedAt = this.clock.now();
    const outcome = await this.runner.runAttempt(claim, attemptedAt);
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

  private prepareAttempt(
    attempt: DeliveryAttempt,
    context: AttemptContextRow,
    config: NotificationConfig | null,
  ): ClaimedAttempt {
    return {
      ...attempt,
      taskId: context.task_id,
      userId: context.user_id,
      owner: channelOwner({
        id: context.user_id,
        email: context.user_email,
        emailVerified: context.user_email_verified,
      }),
      recipient: config ? this.channels.get(config.type).maskedRecipient(config) : '',
      config,
      content: contentOf(attempt, context),
      failuresInRow: context.notification_failures[attempt.channel] ?? 0,
    };
  }
}

/**
 * A delivery already final, or past this attempt, has nothing left for this job to do. The same
 * attempt again is only left to settle when it is a claim cut short by a crash (`claimed`
 * channels: email).
 */
function isStale(context: AttemptContextRow, attempt: DeliveryAttempt, claimed: boolean): boolean {
  const state = context.delivery_state;
  const recorded = context.delivery_attempt;
  if (state === null || recorded === null) return false;
  if (FINAL_DELIVERY_STATES.includes(state) || recorded > attempt.attempt) return true;
  return recorded === attempt.attempt && !(state === 'sending' && claimed);
}

/** What a notification says, from the attempt's execution and task. */
export function contentOf(
  attempt: Pick<DeliveryAttempt, 'event' | 'repeat'>,
  context: AttemptContextRow,
): NotificationContent {
  const completedAt = new Date(context.completed_at ?? context.created_at);
  return {
    // A reminder says what its alert said (docs/attention.md, "Reminders").
    event: attempt.event === 'reminder' ? 'condition_met' : attempt.event,
    repeat: attempt.repeat ?? null,
    folded: context.folded,
    task: {
      id: context.task_id,
      name: context.task_name,
      searchQuery: context.search_query,
      conditionDescription: context.condition_description,
    },
    execution: {
      id: context.execution_id,
      status: context.status === 'failed' ? 'failed' : 'success',
      conditionMet: context.condition_met ?? (attempt.event === 'condition_met' ? true : null),
      claimedMet: context.claimed_met,
      evidence: context.evidence,
      values: context.output_values,
      changes: context.value_changes,
      answer: context.answer ?? '',
      reasoning: context.reasoning ?? '',
      errorMessage: context.error_message,
      groundingSources: context.grounding_sources ?? [],
      pageResults: context.page_results,
      verdictExecutionId: context.verdict_execution_id,
      completedAt,
    },
    consecutiveFailures: context.consecutive_failures ?? 0,
    retractedExecutionId: context.retracted_execution_id,
    occurredAt: completedAt,
  };
}

/**
 * How long a worker keeps trying to record or release a job while the database is out of reach:
 * up to the job's expiry, after which the queue brings the job back by itself.
 */
function releaseDeadline(): number {
  return Date.now() + DELIVERY_JOB_EXPIRY_SECONDS * 1000;
}
