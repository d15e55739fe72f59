import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { TransactionRunner } from '../../database/transaction-runner';
import { DELIVERY_QUEUE, JobQueueService } from '../../scheduler/job-queue.service';
import { WorkerIdentity } from '../../scheduler/worker-identity';
import { NotificationChannelRegistry, type NotificationConfig } from '../channels/channel-registry';
import { channelOwner } from '../channels/notification-channel';
import { AttentionGate, type GatedAttempt } from '../gate/attention-gate';
import { failedAttempt, type AttemptOutcome } from './attempt-outcome';
import {
  CANCELLED_INACTIVE_USER,
  contentOf,
  deliveryWrite,
  type ClaimedAttempt,
} from './claimed-attempt';
import { CHANNEL_REMOVED } from './delivery-attempt.runner';
import type { DeliveryAttempt } from './delivery-job';
import { FINAL_DELIVERY_STATES, type DeliveryState } from './notification-delivery.entity';
import {
  NotificationDeliveryRepository,
  type AttemptContextRow,
} from './notification-delivery.repository';

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
 * Plans a batch of delivery jobs: one read finds each attempt's execution, task and delivery
 * state; jobs with nothing to do complete, attempts that cannot go are settled, and the gate
 * decides what attention makes of the rest (docs/attention.md). Claims an email attempt before it
 * is sent.
 */
@Injectable()
export class DeliveryPlanner {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly queue: JobQueueService,
    private readonly repository: NotificationDeliveryRepository,
    private readonly channels: NotificationChannelRegistry,
    private readonly worker: WorkerIdentity,
    private readonly clock: Clock,
    private readonly gate: AttentionGate,
  ) {}

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
   * when they get an SMTP slot (`claim`), so two runs of one job at once send one message.
   * A row found still `sending` for this very attempt was claimed by a run that died before
   * recording the outcome: the claim is taken over and the email sent again.
   */
  async plan(attempts: DeliveryAttempt[]): Promise<ClaimedAttempt[]> {
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

  /**
   * Claims an attempt of a claimed channel (committed as `sending`) before it is sent: whether
   * this run holds the claim. A claim still `sending` from an earlier run of this attempt is
   * taken over; a task deleted since the plan completes the job, with nothing to send.
   */
  async claim(claim: ClaimedAttempt): Promise<boolean> {
    const claimed = await this.transactions.run(async (manager) => {
      if ((await this.repository.holdTasks(manager, [claim.taskId])).size === 0) {
        await this.queue.complete(manager, DELIVERY_QUEUE, claim.jobId);
        return new Set<string>();
      }
      return this.repository.claimAttempts(manager, this.worker.id, [
        deliveryWrite(claim, 'sending', claim.jobId, null),
      ]);
    });
    return claimed.has(claim.deliveryId);
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
