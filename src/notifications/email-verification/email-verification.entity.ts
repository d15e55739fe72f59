import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from '../../users/user.entity';

export type EmailVerificationStatus = 'pending' | 'verified';

/**
 * An address a user asked to send notifications to (docs/api.md): `pending` with a code mailed to it, or `verified`. The code is stored hashed
 * (`salt:sha256`), never as sent.
 */
@Entity('email_verifications')
@Index('uq_email_verifications_user_id_email', ['userId', 'email'], { unique: true })
export class EmailVerificationEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_email_verifications_user' })
  user?: UserEntity;

  /** Lower case. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 16 })
  status: EmailVerificationStatus;

  /** Null once verified, or when the code was voided by wrong guesses. */
  @Column({ type: 'text', nullable: true })
  codeHash: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  codeExpiresAt: Date | null;

  @Column({ type: 'integer', default: 0 })
  failedAttempts: number;

  @Column({ type: 'timestamptz', nullable: true })
  verifiedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
