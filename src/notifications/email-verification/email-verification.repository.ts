import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import { queryRows, Statement } from '../../database/sql-rows';
import { EmailVerificationEntity } from './email-verification.entity';

/**
 * The table holds each user's few addresses, so the sweep reads it whole rather than through an
 * index of its own. A code requested again meanwhile has a new expiry: the lock re-reads the row
 * and leaves it out.
 */
const DELETE_EXPIRED_CODES = new Statement(
  `WITH expired AS (
     SELECT id FROM email_verifications WHERE status = 'pending' AND code_expires_at < $1
     LIMIT $2 FOR UPDATE SKIP LOCKED)
   DELETE FROM email_verifications v USING expired WHERE v.id = expired.id
   RETURNING v.id`,
);

/** The queries on `email_verifications`; addresses are stored lower case. */
@Injectable()
export class EmailVerificationRepository {
  private readonly verifications: Repository<EmailVerificationEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.verifications = dataSource.getRepository(EmailVerificationEntity);
  }

  isVerified(userId: string, email: string): Promise<boolean> {
    return this.verifications.existsBy({ userId, email, status: 'verified' });
  }

  find(userId: string, email: string): Promise<EmailVerificationEntity | null> {
    return this.verifications.findOneBy({ userId, email });
  }

  /**
   * A new pending code for the address (uq_email_verifications_user_id_email), in the caller's
   * transaction.
   */
  async upsertPending(
    manager: EntityManager,
    userId: string,
    email: string,
    codeHash: string,
    codeExpiresAt: Date,
  ): Promise<void> {
    await manager.upsert(
      EmailVerificationEntity,
      {
        userId,
        email,
        status: 'pending',
        codeHash,
        codeExpiresAt,
        failedAttempts: 0,
        verifiedAt: null,
      },
      ['userId', 'email'],
    );
  }

  /** Locks the address's row in the caller's transaction, so each guess counts once. */
  lock(
    manager: EntityManager,
    userId: string,
    email: string,
  ): Promise<EmailVerificationEntity | null> {
    return manager.findOne(EmailVerificationEntity, {
      where: { userId, email },
      lock: { mode: 'for_no_key_update' },
    });
  }

  save(manager: EntityManager, row: EmailVerificationEntity): Promise<EmailVerificationEntity> {
    return manager.save(row);
  }

  listOfUser(userId: string): Promise<EmailVerificationEntity[]> {
    return this.verifications.find({
      where: { userId },
      order: { createdAt: 'ASC', email: 'ASC' },
    });
  }

  /** True when there was such a row; in the caller's transaction. */
  async delete(manager: EntityManager, userId: string, email: string): Promise<boolean> {
    const result = await manager.delete(EmailVerificationEntity, { userId, email });
    return Boolean(result.affected);
  }

  /**
   * Removes up to `limit` pending verifications whose code expired before `now`, passing over
   * rows a request holds; returns how many.
   */
  async deleteExpiredCodes(now: Date, limit: number): Promise<number> {
    const rows = await queryRows(this.dataSource, DELETE_EXPIRED_CODES, [now, limit]);
    return rows.length;
  }
}
