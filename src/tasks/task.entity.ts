import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { AlertPolicy } from '../attention/alert-policy';
import type {
  NotificationConfig,
  NotificationType,
} from '../notifications/channels/channel-registry';
import type { PageRule, PageTarget } from '../pages/page.types';
import type { OutputSchema } from '../search/output-schema';
import type { NotifyBehavior } from '../search/search.types';
import { UserEntity } from '../users/user.entity';
import type { EvidenceRule } from './evidence-rule';
import type { TaskState } from './task-state';

@Entity('tasks')
@Index('ix_tasks_user_id_created_at', ['userId', 'createdAt'])
@Index('ix_tasks_public_created_at', ['createdAt'], { where: 'is_public' })
@Index('ix_tasks_public_view_count', ['viewCount'], { where: 'is_public' })
@Index('ix_tasks_active_next_run', ['nextRun'], { where: "state = 'active'" })
export class TaskEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_tasks_user' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text' })
  searchQuery: string;

  @Column({ type: 'text' })
  conditionDescription: string;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  state: TaskState;

  @Column({ type: 'varchar', length: 16, default: 'once' })
  notifyBehavior: NotifyBehavior;

  /**
   * The values each check extracts (`output_schema`); null: none. `json`, not `jsonb`: the
   * property order is the order of a check's `changes`.
   */
  @Column({ type: 'json', nullable: true })
  outputSchema: OutputSchema | null;

  /** What a met verdict needs from its sources (`evidence`); null: the verdict as claimed. */
  @Column({ type: 'jsonb', nullable: true })
  evidence: EvidenceRule | null;

  @Column({ type: 'timestamptz', nullable: true })
  nextRun: Date | null;

  @Column({ type: 'boolean', default: false })
  isPublic: boolean;

  @Column({ type: 'integer', default: 0 })
  viewCount: number;

  @Column({ type: 'integer', default: 0 })
  subscriberCount: number;

  @Index('ix_tasks_forked_from_task_id')
  @Column({ type: 'uuid', nullable: true })
  forkedFromTaskId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  lastKnownState: Record<string, unknown> | null;

  @Column({ type: 'uuid', nullable: true })
  lastExecutionId: string | null;

  /**
   * The execution whose met-condition notification stands: what a retraction withdraws. Set
   * with `lastKnownState` when the condition notifies, cleared with it by a retraction.
   */
  @Column({ type: 'uuid', nullable: true })
  alertExecutionId: string | null;

  /** When the standing alert's notification was raised (docs/attention.md, "Acknowledge"). */
  @Column({ type: 'timestamptz', nullable: true })
  alertNotifiedAt: Date | null;

  /** When the owner acknowledged the standing alert; its reminders stop. */
  @Column({ type: 'timestamptz', nullable: true })
  alertAcknowledgedAt: Date | null;

  /** Reminders of the standing alert queued so far. */
  @Column({ type: 'integer', default: 0 })
  alertRepeatsSent: number;

  /**
   * When the task's last `condition_met` or `values_changed` alert went out, or goes out at the
   * end of the cooldown it waits for (docs/attention.md, "Cooldown").
   */
  @Column({ type: 'timestamptz', nullable: true })
  alertSentAt: Date | null;

  /** `{cooldown, repeat_every, repeat_max}` or null (docs/attention.md, "Alert policy"). */
  @Column({ type: 'jsonb', nullable: true })
  alertPolicy: AlertPolicy | null;

  /** The queue job of the next scheduled check (null when none is scheduled). */
  @Column({ type: 'uuid', nullable: true })
  checkJobId: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  notifications: NotificationConfig[];

  /**
   * Deliveries in a row that ended failed, per notification config type (docs/attention.md,
   * "Channels that pause themselves").
   */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  notificationFailures: Partial<Record<NotificationType, number>>;

  /** The pages the task watches instead of searching the web (docs/pages.md); headers are secrets. */
  @Column({ type: 'jsonb', nullable: true })
  pages: PageTarget[] | null;

  /** A rule that decides a page task without a model (docs/pages.md, "Page rules"). */
  @Column({ type: 'jsonb', nullable: true })
  pageRule: PageRule | null;

  /**
   * When the question a check asks last changed (query, condition, output schema, pages, page
   * rule), by the database's clock: a page check carries no verdict made before (docs/pages.md).
   * Written by `TaskRepository.markCheckInputsChanged` only.
   */
  @Column({ type: 'timestamptz', nullable: true, select: false })
  checkInputsChangedAt?: Date | null;

  /**
   * The interval between checks of a task whose verdict needs no model, in milliseconds (a
   * bigint, which TypeORM reads as a string), and the checks in a row without a changed page
   * since it last moved (docs/pages.md, "When a page task is checked"). Written by checks only.
   */
  @Column({ type: 'bigint', nullable: true, select: false })
  pageCheckIntervalMs?: string | null;

  @Column({ type: 'integer', default: 0, select: false })
  pageQuietChecks?: number;

  /** Failed executions in a row (README, "Notification channels", `task.check_failing`). */
  @Column({ type: 'integer', default: 0 })
  consecutiveFailures: number;

  /** Whether the current failing streak has alerted (once per streak). */
  @Column({ type: 'boolean', default: false })
  failureAlerted: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  stateChangedAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  updatedAt: Date | null;
}
