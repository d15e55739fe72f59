import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { ExecutionEntity } from '../../executions/execution.entity';
import { TaskEntity } from '../../tasks/task.entity';
import type { NotificationType } from '../channels/channel-registry';
import type { SendEvent, SendStatus } from '../channels/notification-types';

/** One row per delivery attempt (docs/api.md). */
@Entity('notification_sends')
@Index('ix_notification_sends_user_id_created_at', ['userId', 'createdAt'])
@Index('ix_notification_sends_task_id_created_at', ['taskId', 'createdAt'])
@Index('ix_notification_sends_execution_id', ['executionId'])
@Index('ix_notification_sends_created_at', ['createdAt'])
export class NotificationSendEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid' })
  taskId: string;

  @ManyToOne(() => TaskEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'fk_notification_sends_task' })
  task?: TaskEntity;

  /** Null for a test send. */
  @Column({ type: 'uuid', nullable: true })
  executionId: string | null;

  @ManyToOne(() => ExecutionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'execution_id', foreignKeyConstraintName: 'fk_notification_sends_execution' })
  execution?: ExecutionEntity;

  /** The delivery it records; a `held` record is updated when that delivery goes out. */
  @Index('ix_notification_sends_held_delivery_id', { where: "status = 'held'" })
  @Column({ type: 'uuid', nullable: true })
  deliveryId: string | null;

  @Column({ type: 'text' })
  recipient: string;

  @Column({ type: 'varchar', length: 16 })
  notificationType: NotificationType;

  @Column({ type: 'varchar', length: 24, default: 'condition_met' })
  event: SendEvent;

  @Column({ type: 'varchar', length: 16 })
  status: SendStatus;

  @Column({ type: 'text', nullable: true })
  errorMessage: string | null;

  @Column({ type: 'integer', default: 1 })
  attempt: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
