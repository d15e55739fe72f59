import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { ExecutionEntity } from '../../executions/execution.entity';
import type { NotificationType } from '../channels/channel-registry';
import type { DeliveryEvent } from '../channels/notification-types';

/** Why a delivery waits: the owner's quiet hours, the task's cooldown, or the next digest. */
export type HoldReason = 'quiet_hours' | 'cooldown' | 'digest';

/**
 * `held`: waiting for the end of quiet hours, of a cooldown, or for a digest (docs/attention.md);
 * `sending`: an email attempt is claimed and under way (or was cut short by a crash);
 * `retry_scheduled`: an attempt failed and the next one is queued;
 * `delivered` / `failed` / `skipped` / `cancelled` (the owner's account was deactivated): final.
 */
export const DELIVERY_STATES = [
  'held',
  'sending',
  'retry_scheduled',
  'delivered',
  'failed',
  'skipped',
  'cancelled',
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const FINAL_DELIVERY_STATES: DeliveryState[] = [
  'delivered',
  'failed',
  'skipped',
  'cancelled',
];

/**
 * One notification of one execution through one channel, keyed by the delivery id (the first
 * job's id, derived from execution, channel and event): where it stands, which attempt it is at, and
 * the job of that attempt. An email attempt is written here as `sending` and committed before
 * the SMTP exchange, so two runs of one job at once send it once, and a job that runs again
 * after a crash knows the attempt was cut short and sends it again (same Message-ID). A webhook
 * attempt is written with its outcome.
 */
@Entity('notification_deliveries')
// Serves the sweep for deliveries whose queue job vanished (DeliverySweeper).
// Serves the release of a cooldown: the deliveries that waited for its end.
@Index('ix_notification_deliveries_cooldown', ['taskId', 'cooldownUntil'], {
  where: 'cooldown_until IS NOT NULL',
})
@Index('ix_notification_deliveries_open_updated_at', ['updatedAt'], {
  where: "state IN ('held', 'sending', 'retry_scheduled')",
})
export class NotificationDeliveryEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Index('ix_notification_deliveries_execution_id')
  @Column({ type: 'uuid' })
  executionId: string;

  @ManyToOne(() => ExecutionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'execution_id',
    foreignKeyConstraintName: 'fk_notification_deliveries_execution',
  })
  execution?: ExecutionEntity;

  @Column({ type: 'uuid' })
  taskId: string;

  @Column({ type: 'varchar', length: 16 })
  channel: NotificationType;

  @Column({ type: 'varchar', length: 24, default: 'condition_met' })
  event: DeliveryEvent;

  @Column({ type: 'varchar', length: 16 })
  state: DeliveryState;

  /** The attempt under way or last made (1-based). */
  @Column({ type: 'integer' })
  attempt: number;

  /** The queue job of that attempt. */
  @Column({ type: 'uuid' })
  jobId: string;

  /** The worker that claimed an email attempt; only that worker records its outcome. */
  @Column({ type: 'uuid', nullable: true })
  workerId: string | null;

  /** Bumped each time the sweeper re-queues a delivery whose job vanished (keeps job ids unique). */
  @Column({ type: 'integer', default: 0 })
  recoveries: number;

  /** Until when a `held` delivery waits, and why (docs/attention.md). */
  @Column({ type: 'timestamptz', nullable: true })
  heldUntil: Date | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  holdReason: HoldReason | null;

  /** The end of the cooldown this alert waited for: the alerts of one release share it. */
  @Column({ type: 'timestamptz', nullable: true })
  cooldownUntil: Date | null;
  /** The digest that gathered this held delivery (docs/attention.md, "Digests"). */
  @Index('ix_notification_deliveries_digest_id', { where: 'digest_id IS NOT NULL' })
  @Column({ type: 'uuid', nullable: true })
  digestId: string | null;

  /** The waiting alerts a cooldown's release folded into this one, itself included. */
  @Column({ type: 'integer', nullable: true })
  folded: number | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
