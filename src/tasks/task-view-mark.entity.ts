import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TaskEntity } from './task.entity';

/**
 * A public view already counted for a task, a client network (an IPv4 address or an IPv6 /64)
 * and an hour (docs/api.md, "Tasks"): a view counts only when its mark is new. Marks of past
 * hours are pruned as views come in (ix_task_view_marks_hour).
 */
@Entity('task_view_marks')
@Index('ix_task_view_marks_hour', ['hour'])
export class TaskViewMarkEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_task_view_marks' })
  taskId: string;

  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_task_view_marks' })
  client: string;

  /** The start of the UTC hour of the view. */
  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'pk_task_view_marks' })
  hour: Date;

  @ManyToOne(() => TaskEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'fk_task_view_marks_task' })
  task?: TaskEntity;
}
