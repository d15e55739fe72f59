import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { Clock } from '../../common/clock/clock';
import { MetricsService } from '../../metrics/metrics.service';
import { NotificationChannelRegistry } from '../channels/channel-registry';
import { channelOwner } from '../channels/notification-channel';
import { failedAttempt, type AttemptOutcome } from '../delivery/attempt-outcome';
import { CANCELLED_INACTIVE_USER } from '../delivery/claimed-attempt';
import { CHANNEL_REMOVED } from '../delivery/delivery-attempt.runner';
import { webhookIdFor } from '../delivery/delivery-job';
import { RetrySchedule } from '../delivery/retry-schedule';
import { digestOutcomeWrite, type DigestAttemptRecord, type DigestEvent } from './claimed-digest';
import { digestAttemptJobId } from './digest-job';
import type { ClaimedDigestRow } from './digest.repository';
import type { DigestState } from './notification-digest.entity';

/**
 * Makes one attempt of one claimed digest (docs/attention.md, "Digests"): one message through the
 * channel of its latest event's config (the newest credentials), and what the attempt came to,
 * its next attempt included when it failed and the retry schedule (WEBHOOK_RETRY_SCHEDULE) goes
 * on.
 */
@Injectable()
export class DigestAttemptRunner {
  constructor(
    private readonly channels: NotificationChannelRegistry,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
    private readonly retries: RetrySchedule,
    @InjectPinoLogger(DigestAttemptRunner.name) private readonly logger: PinoLogger,
  ) {}

  /**
   * Sends the digest unless nothing is left to send: its events were deleted, the channel was
   * removed from that task, or the owner is no longer active. Never throws: whatever goes wrong
   * is the outcome of the attempt.
   */
  async runAttempt(digest: ClaimedDigestRow, events: DigestEvent[]): Promise<DigestAttemptRecord> {
    const latest = events.at(-1)?.context;
    const config = latest?.notifications.find((entry) => entry.type === digest.channel);
    if (!latest || !latest.user_active || !config) {
      const [state, reason]: [DigestState, string] = !latest
        ? ['skipped', 'Nothing left to send: the events were deleted']
        : !latest.user_active
          ? ['cancelled', CANCELLED_INACTIVE_USER]
          : ['skipped', CHANNEL_REMOVED];
      return { outcome: digestOutcomeWrite(digest, state, reason), send: null, next: null };
    }
    const channel = this.channels.get(config.type);
    const attemptedAt = this.clock.now();
    const send = () =>
      channel.deliverDigest(config, {
        owner: channelOwner({
          id: latest.user_id,
          email: latest.user_email,
          emailVerified: latest.user_email_verified,
        }),
        period: { period_start: digest.period_start, period_end: digest.period_end },
        events: events.map((event) => event.content),
        digestId: digest.id,
        webhookId: webhookIdFor(digest.id),
        attemptedAt,
      });
    let outcome: AttemptOutcome;
    try {
      outcome = await (channel.claimedSlots ? channel.claimedSlots.run(send) : send());
    } catch (error) {
      this.logger.error({ err: error }, 'Digest attempt failed unexpectedly');
      outcome = failedAttempt('Unexpected error', true);
    }
    this.metrics.recordDelivery(digest.channel, outcome.status);
    const decision = this.retries.after(outcome, digest.attempt);
    return {
      outcome: digestOutcomeWrite(digest, decision.state, outcome.errorMessage),
      send: {
        deliveryId: digest.id,
        userId: digest.user_id,
        taskId: latest.task_id,
        executionId: null,
        recipient: channel.maskedRecipient(config),
        notificationType: config.type,
        event: 'digest',
        status: outcome.status,
        errorMessage: outcome.errorMessage,
        attempt: digest.attempt,
        attemptedAt,
      },
      next:
        decision.state === 'retry_scheduled'
          ? {
              id: digestAttemptJobId(digest.id, digest.attempt + 1),
              data: { digestId: digest.id, attempt: digest.attempt + 1 },
              startAfter: decision.startAfter,
            }
          : null,
    };
  }
}
