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

/**
 * A provider call under way, counted against its user's monthly budget until its usage is
 * recorded (docs/api.md, "Usage"): the budget check and this row are written in one
 * transaction holding the user's row, so concurrent calls see each other. A reservation its
 * call never released (a crash) stops counting after the longest a check can take.
 */
@Entity('budget_reservations')
@Index('ix_budget_reservations_user_id_created_at', ['userId', 'createdAt'])
export class BudgetReservationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_budget_reservations' })
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_budget_reservations_user' })
  user?: UserEntity;

  /** What the call is expected to cost: the user's most expensive recent call. */
  @Column({ type: 'numeric', precision: 14, scale: 6 })
  estimatedCostUsd: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
