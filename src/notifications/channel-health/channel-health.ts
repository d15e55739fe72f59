import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { attentionConfig, type AttentionConfig } from '../../attention/attention.config';
import { decideChannelPause } from '../../attention/decisions/channel-pause-decision';
import { Clock } from '../../common/clock/clock';
import { InjectConfig } from '../../config/config-slice';
import { TransactionRunner } from '../../database/transaction-runner';
import { JobQueueService, OWNER_NOTICE_QUEUE } from '../../scheduler/job-queue.service';
import { paused } from '../channels/channel-pause';
import type { ClaimedAttempt } from '../delivery/claimed-attempt';
import { derivedJobId } from '../delivery/delivery-job';
import type { DeliveryState } from '../delivery/notification-delivery.entity';
import type { ChannelPausedNotice } from './channel-paused-notice';
import { ChannelHealthRepository } from './channel-health.repository';

/**
 * Counts each config's deliveries in a row that ended failed and pauses a config at
 * CHANNEL_PAUSE_AFTER_FAILURES, telling its owner once (docs/attention.md, "Channels that pause
 * themselves"). Runs after the outcome is recorded, in its own transaction with the task locked
 * first: a success writes only when it ends a count.
 */
@Injectable()
export class ChannelHealth {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tasks: ChannelHealthRepository,
    private readonly queue: JobQueueService,
    @InjectConfig(attentionConfig) private readonly config: AttentionConfig,
    private readonly clock: Clock,
    @InjectPinoLogger(ChannelHealth.name) private readonly logger: PinoLogger,
  ) {}

  async afterDelivery(
    claim: ClaimedAttempt,
    state: DeliveryState,
    error: string | null,
  ): Promise<void> {
    if (state !== 'delivered' && state !== 'failed') return;
    if (state === 'delivered' && claim.failuresInRow === 0) return;
    try {
      await this.transactions.run(async (manager) => {
        const task = await this.tasks.lockHealth(manager, claim.taskId);
        const config = task?.notifications.find((entry) => entry.type === claim.channel);
        if (!task || !config) return;
        const decision = decideChannelPause({
          event: claim.event,
          succeeded: state === 'delivered',
          error: error === null ? null : shortError(error),
          consecutiveFailures: task.notification_failures[claim.channel] ?? 0,
          alreadyPaused: config.paused_at !== undefined,
          pauseAfter: this.config.channelPauseAfterFailures,
        });
        const now = this.clock.now();
        const pause = decision.pause;
        const notifications = pause
          ? task.notifications.map((entry) =>
              entry === config ? paused(entry, now, pause.reason) : entry,
            )
          : task.notifications;
        await this.tasks.saveHealth(
          manager,
          claim.taskId,
          notifications,
          claim.channel,
          decision.consecutiveFailures,
        );
        if (!pause) return;
        const notice: ChannelPausedNotice = {
          userId: task.user_id,
          taskId: claim.taskId,
          taskName: task.name,
          channel: claim.channel,
          reason: pause.reason,
        };
        await this.queue.enqueueJobs(manager, OWNER_NOTICE_QUEUE, [
          {
            id: derivedJobId('channel-paused', claim.taskId, claim.channel, now.toISOString()),
            data: notice,
          },
        ]);
      });
    } catch (failure) {
      // The count is a courtesy to the owner: a delivery's outcome stands without it.
      this.logger.warn({ err: failure, taskId: claim.taskId }, 'Counting delivery failures failed');
    }
  }
}

/**
 * A failure as a pause reason names it: `HTTP 404` for a receiver's answer, the attempt's error
 * otherwise (`SMTP error: ...`, `Connection refused`).
 */
export function shortError(error: string): string {
  return /^HTTP \d{3}\b/.exec(error)?.[0] ?? error;
}
