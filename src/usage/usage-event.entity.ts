import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** What a provider call was made for: a check (an execution), a suggestion or a preview. */
export type UsageKind = 'check' | 'suggest' | 'preview';

/**
 * One provider-backed operation of a user, as billed (README, "Search providers"). The
 * monthly sums and the budget read this table; an execution's row also keeps its `usage`.
 */
@Entity('usage_events')
@Index('ix_usage_events_user_id_created_at', ['userId', 'createdAt'])
@Index('ix_usage_events_created_at', ['createdAt'])
// A check's usage is written once however often its result is retried (at-least-once jobs).
@Index('uq_usage_events_execution_id', ['executionId'], {
  unique: true,
  where: 'execution_id IS NOT NULL',
})
export class UsageEventEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_usage_events_user' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 16 })
  kind: UsageKind;

  /** The execution of a check; kept when the task and its executions are deleted (spend stays spent). */
  @Column({ type: 'uuid', nullable: true })
  executionId: string | null;

  @Column({ type: 'varchar', length: 32 })
  provider: string;

  @Column({ type: 'varchar', length: 200 })
  model: string;

  @Column({ type: 'integer' })
  inputTokens: number;

  @Column({ type: 'integer' })
  outputTokens: number;

  @Column({ type: 'integer' })
  searchCalls: number;

  @Column({ type: 'numeric', precision: 14, scale: 6, nullable: true })
  costUsd: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
