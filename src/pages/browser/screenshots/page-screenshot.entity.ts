import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PageSnapshotEntity } from '../../snapshots/page-snapshot.entity';

/**
 * The last screenshot of a browser page of a task (docs/pages.md, "Screenshots"): the PNG of the
 * viewport of its last good browser read, only that. It belongs to the page's snapshot, and goes
 * with it when the task stops naming the page.
 */
@Entity('page_screenshots')
export class PageScreenshotEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_page_screenshots' })
  taskId: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_page_screenshots' })
  url: string;

  @ManyToOne(() => PageSnapshotEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'task_id',
      referencedColumnName: 'taskId',
      foreignKeyConstraintName: 'fk_page_screenshots_snapshot',
    },
    { name: 'url', referencedColumnName: 'url' },
  ])
  snapshot?: PageSnapshotEntity;

  @Column({ type: 'bytea' })
  png: Buffer;

  @Column({ type: 'timestamptz' })
  takenAt: Date;
}
