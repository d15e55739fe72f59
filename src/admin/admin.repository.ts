import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../database/sql-rows';
import { TaskEntity } from '../tasks/task.entity';
import type { AdminQueryRow } from './admin.mapper';

/** Counts across the platform, named as the stats endpoint reports them. */
export interface PlatformCountsRow {
  users_total: number;
  users_active: number;
  tasks_total: number;
  tasks_active: number;
  tasks_paused: number;
  tasks_completed: number;
  executions_total: number;
  executions_success: number;
  executions_failed: number;
  notifications_total: number;
  notifications_failed: number;
}

/** The administrators' queries, which read across users, tasks, executions and sends. */
@Injectable()
export class AdminRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every task's search query with its owner's email, newest first, and how many tasks there are. */
  async pageOfTaskQueries(
    limit: number,
    offset: number,
  ): Promise<{ rows: AdminQueryRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      queryRows<AdminQueryRow>(
        this.dataSource,
        `SELECT t.id AS task_id, t.user_id, u.email AS user_email, t.name, t.search_query,
                t.condition_description, t.state, t.is_public, t.created_at
         FROM tasks t JOIN users u ON u.id = t.user_id
         ORDER BY t.created_at DESC, t.id DESC
         LIMIT $1 OFFSET $2`,
        [limit, offset],
      ),
      this.dataSource.getRepository(TaskEntity).count(),
    ]);
    return { rows, total };
  }

  /**
   * How many tasks each of these users has; a user without tasks is absent. One grouped count
   * (ix_tasks_user_id_created_at), not one per user.
   */
  async countTasksOfUsers(userIds: string[]): Promise<Map<string, number>> {
    const counts = await queryRows<{ user_id: string; task_count: number }>(
      this.dataSource,
      `SELECT user_id, count(*)::int AS task_count FROM tasks
       WHERE user_id = ANY($1::uuid[]) GROUP BY user_id`,
      [userIds],
    );
    return new Map(counts.map((row) => [row.user_id, row.task_count]));
  }

  /**
   * One round trip. The 24-hour windows use ix_executions_created_at and
   * ix_notification_sends_created_at; users and tasks are counted whole.
   */
  async countPlatform(): Promise<PlatformCountsRow> {
    const [row] = await queryRows<PlatformCountsRow>(
      this.dataSource,
      `SELECT u.total AS users_total, u.active AS users_active,
              t.total AS tasks_total, t.active AS tasks_active, t.paused AS tasks_paused,
              t.completed AS tasks_completed,
              e.total AS executions_total, e.success AS executions_success, e.failed AS executions_failed,
              n.total AS notifications_total, n.failed AS notifications_failed
       FROM
         (SELECT count(*)::int AS total, (count(*) FILTER (WHERE state = 'active'))::int AS active
          FROM users) u,
         (SELECT count(*)::int AS total,
                 (count(*) FILTER (WHERE state = 'active'))::int AS active,
                 (count(*) FILTER (WHERE state = 'paused'))::int AS paused,
                 (count(*) FILTER (WHERE state = 'completed'))::int AS completed
          FROM tasks) t,
         (SELECT count(*)::int AS total,
                 (count(*) FILTER (WHERE status = 'success'))::int AS success,
                 (count(*) FILTER (WHERE status = 'failed'))::int AS failed
          FROM executions WHERE created_at > now() - interval '24 hours') e,
         (SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = 'failed'))::int AS failed
          FROM notification_sends WHERE created_at > now() - interval '24 hours') n`,
    );
    return row;
  }
}
