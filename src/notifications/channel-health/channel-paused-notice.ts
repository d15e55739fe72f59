import { MailerService } from '@nestjs-modules/mailer';
import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { InjectConfig } from '../../config/config-slice';
import { TransactionRunner } from '../../database/transaction-runner';
import {
  JobQueueService,
  OWNER_NOTICE_QUEUE,
  type QueueJob,
} from '../../scheduler/job-queue.service';
import { WorksQueue } from '../../scheduler/queue-declaration';
import { CHANNELS } from '../channels/channel-registry';
import { emailConfig, type EmailConfig } from '../channels/email/email.config';
import { oneLine } from '../content/notification-content';
import { OWNER_NOTICE_QUEUE_DECLARATION } from './owner-notice.queue';
import { ChannelHealthRepository } from './channel-health.repository';

/** What the owner of a config that paused itself is told (docs/attention.md). */
export interface ChannelPausedNotice {
  userId: string;
  taskId: string;
  taskName: string;
  channel: string;
  reason: string;
}

/** The email that tells it, at the account's address. */
export function pausedNoticeEmail(notice: ChannelPausedNotice): { subject: string; text: string } {
  const name = oneLine(notice.taskName) || 'Monitor';
  const label =
    CHANNELS.find((channel) => channel.type === notice.channel)?.label ?? notice.channel;
  return {
    subject: `[Monitor] ${name}: ${label} notifications paused`,
    text: [
      `Your monitor "${name}" stopped sending ${label} notifications: ${notice.reason}.`,
      '',
      'Its events are recorded as skipped until the config is saved again or resumed:',
      `POST /api/v1/tasks/${notice.taskId}/notifications/${notice.channel}/resume`,
      '',
    ].join('\n'),
  };
}

/**
 * Sends the owner notices, one email each; the queue retries one that fails. An account without
 * a verified email address gets none: an unverified address may be anyone's, and the pause shows
 * on the task and in the console anyway (docs/attention.md, "Channels that pause themselves").
 */
@Injectable()
export class ChannelPausedNoticeWorker {
  constructor(
    @InjectConfig(emailConfig) private readonly email: EmailConfig,
    private readonly tasks: ChannelHealthRepository,
    private readonly mailer: MailerService,
    private readonly transactions: TransactionRunner,
    private readonly queue: JobQueueService,
    @InjectPinoLogger(ChannelPausedNoticeWorker.name) private readonly logger: PinoLogger,
  ) {}

  /** Sends a batch of notices; each frees its slot once it is sent or handed back. */
  @WorksQueue(OWNER_NOTICE_QUEUE_DECLARATION)
  async sendAll(jobs: Array<QueueJob<ChannelPausedNotice>>, release: () => void): Promise<void> {
    await Promise.all(
      jobs.map(async (job) => {
        try {
          await this.send(job.data, job.id);
          await this.transactions.run((manager) =>
            this.queue.complete(manager, OWNER_NOTICE_QUEUE, job.id),
          );
        } catch (error) {
          this.logger.warn({ err: error }, 'Sending an owner notice failed');
          await this.queue.failOnceReachable(
            OWNER_NOTICE_QUEUE,
            job.id,
            'sending failed',
            Date.now() + 60_000,
          );
        } finally {
          release();
        }
      }),
    );
  }

  private async send(notice: ChannelPausedNotice, jobId: string): Promise<void> {
    const email = await this.tasks.verifiedOwnerEmail(notice.userId);
    if (!email) return;
    const domain = /@([^>\s]+)>?\s*$/.exec(this.email.mailFrom)?.[1] ?? 'localhost';
    await this.mailer.sendMail({
      to: email,
      from: this.email.mailFrom,
      ...pausedNoticeEmail(notice),
      messageId: `<${jobId}@${domain}>`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  }
}
