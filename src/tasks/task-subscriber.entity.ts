import { CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';
import { TaskEntity } from './task.entity';

/**
 * A user who forked a task, once however often they forked it (docs/api.md, "Tasks"):
 * `tasks.subscriber_count` grows only when a row is added here.
 */
@Entity('task_subscribers')
export class TaskSubscriberEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_task_subscribers' })
  taskId: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_task_subscribers' })
  userId: string;

  @ManyToOne(() => TaskEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'fk_task_subscribers_task' })
  task?: TaskEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_task_subscribers_user' })
  user?: UserEntity;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
