import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TaskEntity } from '../../tasks/task.entity';
import type { PageStatus, PageValueReadings } from '../page.types';

/**
 * One watched page of a task (docs/pages.md, "Snapshots"): the text of its last good fetch, only
 * that, with the validators for the next conditional request, and the status of its latest
 * fetch. The diff history lives in the executions (`page_results`).
 */
@Entity('page_snapshots')
export class PageSnapshotEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_page_snapshots' })
  taskId: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_page_snapshots' })
  url: string;

  @ManyToOne(() => TaskEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'fk_page_snapshots_task' })
  task?: TaskEntity;

  /** The latest fetch's status and HTTP status, good or not. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  status: PageStatus | null;

  @Column({ type: 'integer', nullable: true })
  httpStatus: number | null;

  /** The last good fetch: its title, text and the hex SHA-256 of the text. */
  @Column({ type: 'text', nullable: true })
  title: string | null;

  @Column({ type: 'text', nullable: true })
  text: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  contentHash: string | null;

  @Column({ type: 'text', nullable: true })
  etag: string | null;

  @Column({ type: 'text', nullable: true })
  lastModified: string | null;

  /** The hex SHA-256 of the body the text was read from, with its type and the selector. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  bodyHash: string | null;

  /** The values the last good fetch read; null when the page declared none. */
  @Column({ type: 'jsonb', nullable: true })
  values: PageValueReadings | null;

  @Column({ type: 'timestamptz', nullable: true })
  fetchedAt: Date | null;

  /** When the text last changed: set by the first good fetch, moved only by a change. */
  @Column({ type: 'timestamptz', nullable: true })
  changedAt: Date | null;
}
