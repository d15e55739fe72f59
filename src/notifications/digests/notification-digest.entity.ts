import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import type { NotificationType } from '../channels/channel-registry';
import { UserEntity } from '../../users/user.entity';

/**
 * `sending`: an attempt is claimed (committed before anything is sent) and under way, or was cut
 * short by a crash; `retry_scheduled`: an attempt failed and the next one is queued;
 * `delivered` / `failed` / `skipped` (its channel was removed) / `cancelled` (the owner's
 * account is not active): final.
 */
export const DIGEST_STATES = [
  'sending',
  'retry_scheduled',
  'delivered',
  'failed',
  'skipped',
  'cancelled',
] as const;
export type DigestState = (typeof DIGEST_STATES)[number];
export const FINAL_DIGEST_STATES: DigestState[] = ['delivered', 'failed', 'skipped', 'cancelled'];

/**
 * One digest: the message of one destination of one user for one period (docs/attention.md,
 * "Digests"). Its id is derived from (user, destination, period end), so a second worker or a
 * restart finds the same row: the row is claimed before each attempt, which makes the digest go
 * once, and its id gives the same `webhook-id` or `Message-ID` when an attempt cut short by a
 * crash is made again. The held deliveries it gathers point at it (`digest_id`).
 */
@Entity('notification_digests')
@Index('ix_notification_digests_user_id_period_end', ['userId', 'periodEnd'])
export class NotificationDigestEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_notification_digests_user' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 16 })
  channel: NotificationType;

  @Column({ type: 'timestamptz' })
  periodStart: Date;

  @Column({ type: 'timestamptz' })
  periodEnd: Date;

  @Column({ type: 'varchar', length: 16 })
  state: DigestState;

  /** The attempt under way or last made (1-based). */
  @Column({ type: 'integer' })
  attempt: number;

  /** The worker whose claim is under way; only that worker records its outcome. */
  @Column({ type: 'uuid', nullable: true })
  workerId: string | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
