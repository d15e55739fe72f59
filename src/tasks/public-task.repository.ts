import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import { TaskEntity } from './task.entity';
import {
  LAST_EXECUTION_COLUMNS,
  TASK_COLUMNS,
  WITH_LAST_EXECUTION,
  withLastExecution,
  type TaskRow,
  type TaskWithLastExecution,
} from './task.repository';

/**
 * The queries of the public side of tasks: the gallery of public tasks, their views and feeds, and
 * the subscribers their forks count.
 */
@Injectable()
export class PublicTaskRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A page of public tasks with their last executions and how many public tasks there are, in one
   * statement (the count comes with an empty page too). Served by ix_tasks_public_created_at
   * (recent) and ix_tasks_public_view_count (popular).
   */
  async listPublic(
    sort: 'recent' | 'popular',
    offset: number,
    limit: number,
  ): Promise<{ tasks: TaskWithLastExecution[]; total: number }> {
    const order =
      sort === 'popular'
        ? 't.view_count DESC, t.subscriber_count DESC, t.created_at DESC, t.id DESC'
        : 't.created_at DESC, t.id DESC';
    const rows = await queryRows<TaskRow & { total: string }>(
      this.dataSource,
      `SELECT c.total, page.* FROM (SELECT count(*) AS total FROM tasks WHERE is_public) c
       LEFT JOIN LATERAL (${WITH_LAST_EXECUTION} WHERE t.is_public ORDER BY ${order} OFFSET $1 LIMIT $2) page
       ON true`,
      [offset, limit],
    );
    return {
      tasks: rows.filter((row) => row.id !== null).map(withLastExecution),
      total: Number(rows[0]?.total ?? 0),
    };
  }

  /**
   * Reads a public task with its last execution, counting the view when `client` (an address or
   * an IPv6 /64) has not viewed it this UTC hour (docs/api.md, "Tasks"): a new mark in
   * task_view_marks is what counts. The task's marks of past hours are pruned on the way
   * (pk_task_view_marks). Null: no such public task.
   */
  async countPublicView(id: string, client: string): Promise<TaskWithLastExecution | null> {
    const rows = await queryRows<TaskRow>(
      this.dataSource,
      `WITH hour AS (SELECT date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS start),
       pruned AS (
         DELETE FROM task_view_marks WHERE task_id = $1 AND hour < (SELECT start FROM hour)
       ),
       mark AS (
         INSERT INTO task_view_marks (task_id, client, hour)
         SELECT id, $2, (SELECT start FROM hour) FROM tasks WHERE id = $1 AND is_public
         ON CONFLICT DO NOTHING RETURNING task_id
       ),
       counted AS (
         UPDATE tasks SET view_count = view_count + 1 WHERE id IN (SELECT task_id FROM mark)
         RETURNING *
       )
       SELECT ${TASK_COLUMNS}, ${LAST_EXECUTION_COLUMNS}
       FROM (
         SELECT * FROM counted
         UNION ALL
         SELECT * FROM tasks WHERE id = $1 AND is_public AND NOT EXISTS (SELECT 1 FROM counted)
       ) t
       LEFT JOIN executions e ON e.id = t.last_execution_id`,
      [id, client],
    );
    return rows.length === 0 ? null : withLastExecution(rows[0]);
  }

  /** A public task, read outside any transaction. */
  findPublic(id: string): Promise<TaskEntity | null> {
    return this.dataSource.getRepository(TaskEntity).findOneBy({ id, isPublic: true });
  }

  /**
   * Counts `userId` among the task's subscribers once, however often they fork it (docs/api.md,
   * "Tasks"): the count grows only when their row in task_subscribers is new
   * (pk_task_subscribers). One atomic increment: concurrent forks never lose a count.
   */
  async countSubscriber(manager: EntityManager, taskId: string, userId: string): Promise<void> {
    await manager.query(
      `WITH added AS (
         INSERT INTO task_subscribers (task_id, user_id) VALUES ($1, $2)
         ON CONFLICT DO NOTHING RETURNING task_id
       )
       UPDATE tasks SET subscriber_count = subscriber_count + 1
       WHERE id IN (SELECT task_id FROM added)`,
      [taskId, userId],
    );
  }
}
