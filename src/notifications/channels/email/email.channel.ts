import { MailerService } from '@nestjs-modules/mailer';
import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { InjectConfig } from '../../../config/config-slice';
import { failedAttempt, SUCCEEDED, type AttemptOutcome } from '../../delivery/attempt-outcome';
import { ConcurrencyLimit } from '../../delivery/concurrency-limit';
import { EmailVerificationService } from '../../email-verification/email-verification.service';
import { renderDigestEmail } from '../../content/digest-content';
import { renderEmail, type RenderedEmail } from '../../content/email-content';
import type { NotificationConfigBase } from '../notification-types';
import {
  defineChannel,
  type ChannelOwner,
  type NotificationChannel,
  type OutgoingDigest,
  type OutgoingNotification,
} from '../notification-channel';
import { EMAIL_VARIABLES, emailConfig, type EmailConfig } from './email.config';
import {
  smtpFailureClass,
  smtpFailureDetail,
  UNSENDABLE_MESSAGE_CODES,
  type SmtpError,
} from './smtp-failure';

export interface EmailNotificationConfig extends NotificationConfigBase {
  type: 'email';
  address: string;
}

export const SMTP_NOT_CONFIGURED = 'SMTP is not configured (set SMTP_URL)';

/** Bounds one SMTP attempt, so a stalled server cannot hold a delivery job past its expiry. */
export const SMTP_SEND_TIMEOUT_MS = 45_000;
/** SMTP connections at once from one process (each message opens its own). */
export const MAX_SMTP_CONNECTIONS = 16;

const EMAIL_PATTERN = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:"]+$/;

/** Notification emails over SMTP (SMTP_URL, MAIL_FROM), to verified recipients. */
@Injectable()
export class EmailChannel implements NotificationChannel<EmailNotificationConfig> {
  readonly type = 'email';
  readonly digestsGather = 'destination';
  /** An email attempt is claimed and sent inside one of these slots (see NotificationDeliveryService). */
  readonly claimedSlots = new ConcurrencyLimit(MAX_SMTP_CONNECTIONS);

  constructor(
    @InjectConfig(emailConfig) private readonly config: EmailConfig,
    private readonly mailer: MailerService,
    private readonly verifications: EmailVerificationService,
    @InjectPinoLogger(EmailChannel.name) private readonly logger: PinoLogger,
  ) {}

  async validate(
    entry: Record<string, unknown>,
    _previous: EmailNotificationConfig | undefined,
    owner: ChannelOwner,
  ): Promise<EmailNotificationConfig> {
    const address = typeof entry.address === 'string' ? entry.address.trim() : '';
    if (!address || address.length > 320 || !EMAIL_PATTERN.test(address)) {
      throw new BadRequestException('Invalid notification: address must be a valid email address');
    }
    const refusal = await this.verifications.recipientRefusal(owner, address);
    if (refusal) throw new BadRequestException(`Invalid notification: ${refusal}`);
    return { type: 'email', address };
  }

  copyForOwnFork(config: EmailNotificationConfig): EmailNotificationConfig {
    return { ...config };
  }

  maskedRecipient(config: EmailNotificationConfig): string {
    return config.address;
  }

  /** An address compared without case. */
  address(config: EmailNotificationConfig): string {
    return config.address.toLowerCase();
  }

  /**
   * The Message-ID is derived from the delivery (`messageIdFor`), the same for every attempt, so
   * a message that goes out again (an attempt cut short by a crash or a lost connection) carries
   * the same Message-ID and mail clients show it once. An address whose verification was
   * removed since the task was saved is refused here (docs/api.md).
   */
  deliver(
    config: EmailNotificationConfig,
    notification: OutgoingNotification,
  ): Promise<AttemptOutcome> {
    return this.sendChecked(
      config,
      notification.owner,
      () => renderEmail(notification.content),
      notification.deliveryId,
    );
  }

  /** The digest's email; its Message-ID is derived from the digest, like a delivery's. */
  deliverDigest(config: EmailNotificationConfig, digest: OutgoingDigest): Promise<AttemptOutcome> {
    return this.sendChecked(config, digest.owner, () => renderDigestEmail(digest), digest.digestId);
  }

  private async sendChecked(
    config: EmailNotificationConfig,
    owner: ChannelOwner,
    render: () => RenderedEmail,
    messageKey: string,
  ): Promise<AttemptOutcome> {
    if (!this.config.smtpUrl) return failedAttempt(SMTP_NOT_CONFIGURED, false);
    const refusal = await this.verifications.recipientRefusal(owner, config.address);
    if (refusal) return failedAttempt(refusal, false);
    return this.sendEmail(config.address, render(), this.messageIdFor(messageKey));
  }

  /** `<delivery-id@domain of MAIL_FROM>`. */
  messageIdFor(deliveryId: string): string {
    const domain = /@([^>\s]+)>?\s*$/.exec(this.config.mailFrom)?.[1] ?? 'localhost';
    return `<${deliveryId}@${domain}>`;
  }

  private async sendEmail(
    address: string,
    email: RenderedEmail,
    messageId: string,
  ): Promise<AttemptOutcome> {
    try {
      await this.mailer.sendMail({
        to: address,
        from: this.config.mailFrom,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId,
        headers: { 'Auto-Submitted': 'auto-generated' },
        timeout: SMTP_SEND_TIMEOUT_MS,
      });
      return SUCCEEDED;
    } catch (error) {
      // The send record says only the class of failure; the server's words, host and port are
      // the log's.
      this.logger.warn({ error: smtpFailureDetail(error) }, 'SMTP send failed');
      return failedAttempt(`SMTP error: ${smtpFailureClass(error)}`, isRetryableSmtpError(error));
    }
  }
}

/**
 * Retry unless the server refused the message for good (a 5xx reply) or the message itself
 * cannot be sent. A connection lost after the message was handed over (while waiting for the
 * final reply) is retried too: the message may have arrived, and the repeat carries the same
 * Message-ID, so mail clients show it once (email is at least once).
 */
export function isRetryableSmtpError(error: unknown): boolean {
  const smtp = error as SmtpError;
  if (typeof smtp?.responseCode === 'number') {
    return smtp.responseCode >= 400 && smtp.responseCode < 500;
  }
  return !UNSENDABLE_MESSAGE_CODES.includes(smtp?.code ?? '');
}

export const emailChannel = defineChannel<EmailNotificationConfig>({
  type: 'email',
  label: 'Email',
  channel: EmailChannel,
  fields: [{ name: 'address', label: 'Address', input: 'email' }],
  config: emailConfig,
  variables: EMAIL_VARIABLES,
  // Addresses in text are masked by the log itself.
  secrets: { fields: ['address', 'smtpUrl'] },
});
