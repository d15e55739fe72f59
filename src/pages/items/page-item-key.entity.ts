import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TaskEntity } from '../../tasks/task.entity';

/**
 * An item key a page of a task has shown (docs/pages.md, "Items and feeds"): what tells a new item
 * from one seen before. Only the most recent 5,000 of a page are kept; a check that finds nothing
 * new writes none.
 */
@Entity('page_item_keys')
@Index('ix_page_item_keys_recency', ['taskId', 'url', 'seenAt'])
export class PageItemKeyEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_page_item_keys' })
  taskId: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_page_item_keys' })
  url: string;

  /** The hex SHA-256 of the item's key. */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_page_item_keys' })
  keyHash: string;

  @ManyToOne(() => TaskEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'fk_page_item_keys_task' })
  task?: TaskEntity;

  /** When the page first showed the item. */
  @Column({ type: 'timestamptz' })
  seenAt: Date;

  /** The item's place on the page then: of the items seen at once, the first is the most recent. */
  @Column({ type: 'integer' })
  position: number;
}
