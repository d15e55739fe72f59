import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import { EmailVerificationEntity } from './email-verification.entity';

/** The queries on `email_verifications`; addresses are stored lower case. */
@Injectable()
export class EmailVerificationRepository {
  private readonly verifications: Repository<EmailVerificationEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.verifications = dataSource.getRepository(EmailVerificationEntity);
  }

  isVerified(userId: string, email: string): Promise<boolean> {
    return this.verifications.existsBy({ userId, email, status: 'verified' });
  }

  find(userId: string, email: string): Promise<EmailVerificationEntity | null> {
    return this.verifications.findOneBy({ userId, email });
  }

  /** A new pending code for the address (uq_email_verifications_user_id_email). */
  async upsertPending(
    userId: string,
    email: string,
    codeHash: string,
    codeExpiresAt: Date,
  ): Promise<void> {
    await this.verifications.upsert(
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

  /** True when there was such a row. */
  async delete(userId: string, email: string): Promise<boolean> {
    const result = await this.verifications.delete({ userId, email });
    return Boolean(result.affected);
  }
}
