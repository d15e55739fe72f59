import { MailerService } from '@nestjs-modules/mailer';
import {
  BadRequestException,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { smtpFailureClass } from '../channels/email/smtp-failure';
import { InjectConfig } from '../../config/config-slice';
import { TransactionRunner } from '../../database/transaction-runner';
import type { ChannelOwner } from '../channels/notification-channel';
import type {
  EmailVerificationListItem,
  EmailVerificationResponse,
} from './dto/email-verification.dto';
import { EmailVerificationRepository } from './email-verification.repository';
import { Clock } from '../../common/clock/clock';
import { emailConfig, type EmailConfig } from '../channels/email/email.config';
import { UsersService } from '../../users/users.service';

/** A code is valid 30 minutes and void after 5 wrong guesses (docs/api.md, "Notifications"). */
export const CODE_VALIDITY_MS = 30 * 60_000;
export const MAX_WRONG_CODES = 5;
export const WRONG_CODE = 'Wrong verification code';
export const CODE_EXPIRED = 'The verification code has expired: request a new one';
export const CODE_VOID =
  'The verification code is void after too many wrong tries: request a new one';

/**
 * Addresses a user may send notifications to under `EMAIL_RECIPIENT_POLICY=verified`: their own
 * account email (when the identity provider verified it) and the addresses they proved to read
 * by a mailed 6-digit code. Without it, anyone could make the service mail anyone.
 */
@Injectable()
export class EmailVerificationService {
  constructor(
    @InjectConfig(emailConfig) private readonly config: EmailConfig,
    private readonly transactions: TransactionRunner,
    private readonly verifications: EmailVerificationRepository,
    private readonly mailer: MailerService,
    private readonly clock: Clock,
    private readonly users: UsersService,
  ) {}

  /** Why the owner may not send to `address` (`email address <a> is not verified`), or null. */
  async recipientRefusal(owner: ChannelOwner, address: string): Promise<string | null> {
    if (this.config.emailRecipientPolicy === 'any' || this.isOwnEmail(owner, address)) return null;
    const verified = await this.verifications.isVerified(owner.id, address.toLowerCase());
    return verified ? null : `email address ${address} is not verified`;
  }

  /**
   * Mails a new code to the address (any earlier code stops working). An address already
   * verified, or the owner's own, needs none: the answer says `verified` and nothing is mailed.
   */
  async requestCode(owner: ChannelOwner, email: string): Promise<EmailVerificationResponse> {
    const address = email.toLowerCase();
    const existing = await this.verifications.find(owner.id, address);
    if (existing?.status === 'verified' || this.isOwnEmail(owner, address)) {
      return { email: address, status: 'verified' };
    }
    if (!this.config.smtpUrl) {
      throw new ServiceUnavailableException(
        'Email is not configured (SMTP_URL): no code can be sent',
      );
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    // The code is stored, and only then mailed, while the owner is active (docs/api.md, "Admin").
    await this.transactions.run(async (manager) => {
      await this.users.lockActiveUser(manager, owner.id);
      await this.verifications.upsertPending(
        manager,
        owner.id,
        address,
        hashCode(code),
        new Date(this.clock.now().getTime() + CODE_VALIDITY_MS),
      );
    });
    try {
      await this.mailer.sendMail({
        to: address,
        from: this.config.mailFrom,
        subject: `[Monitor] Your verification code: ${code}`,
        text: [
          `Your code to receive notifications at ${address} is ${code}.`,
          '',
          'It is valid for 30 minutes. If you did not ask for it, ignore this email.',
          '',
        ].join('\n'),
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    } catch (error) {
      // The class of failure only: the SMTP server's text, host and port go to the log.
      throw new ServiceUnavailableException(
        `The verification email could not be sent: SMTP error: ${smtpFailureClass(error)}`,
        { cause: error },
      );
    }
    return { email: address, status: 'pending' };
  }

  /** Checks a code in constant time; 5 wrong codes void it (row locked, so guesses count once). */
  async confirm(
    owner: ChannelOwner,
    email: string,
    code: string,
  ): Promise<EmailVerificationResponse> {
    const address = email.toLowerCase();
    const outcome = await this.transactions.run(async (manager) => {
      await this.users.lockActiveUser(manager, owner.id);
      const row = await this.verifications.lock(manager, owner.id, address);
      if (row?.status === 'verified') return null;
      if (!row) return `No verification code was requested for ${address}`;
      if (!row.codeHash || row.failedAttempts >= MAX_WRONG_CODES) return CODE_VOID;
      if (!row.codeExpiresAt || row.codeExpiresAt.getTime() <= this.clock.now().getTime())
        return CODE_EXPIRED;
      if (!codeMatches(row.codeHash, code)) {
        row.failedAttempts += 1;
        if (row.failedAttempts >= MAX_WRONG_CODES) row.codeHash = null;
        await this.verifications.save(manager, row);
        return WRONG_CODE;
      }
      Object.assign(row, {
        status: 'verified',
        codeHash: null,
        codeExpiresAt: null,
        verifiedAt: this.clock.now(),
      });
      await this.verifications.save(manager, row);
      return null;
    });
    if (outcome !== null) throw new BadRequestException(outcome);
    return { email: address, status: 'verified' };
  }

  async list(owner: ChannelOwner): Promise<EmailVerificationListItem[]> {
    const rows = await this.verifications.listOfUser(owner.id);
    return rows.map((row) => ({
      email: row.email,
      status: row.status,
      verified_at: row.verifiedAt?.toISOString() ?? null,
    }));
  }

  /** Later sends to the address fail until it is verified again. */
  async remove(owner: ChannelOwner, email: string): Promise<void> {
    const removed = await this.transactions.run(async (manager) => {
      await this.users.lockActiveUser(manager, owner.id);
      return this.verifications.delete(manager, owner.id, email.toLowerCase());
    });
    if (!removed) throw new NotFoundException('Email verification not found');
  }

  private isOwnEmail(owner: ChannelOwner, address: string): boolean {
    return (
      owner.verifiedEmail !== null && owner.verifiedEmail.toLowerCase() === address.toLowerCase()
    );
  }
}

function hashCode(code: string, salt: string = randomBytes(16).toString('hex')): string {
  return `${salt}:${createHash('sha256').update(`${salt}:${code}`).digest('hex')}`;
}

function codeMatches(stored: string, code: string): boolean {
  const [salt] = stored.split(':');
  return timingSafeEqual(Buffer.from(hashCode(code, salt)), Buffer.from(stored));
}
