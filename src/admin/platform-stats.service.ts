import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../database/sql-rows';

class UserCounts {
  @ApiProperty({ type: 'integer' })
  total: number;

  @ApiProperty({ type: 'integer' })
  active: number;
}

class TaskCounts {
  @ApiProperty({ type: 'integer' })
  total: number;

  @ApiProperty({ type: 'integer' })
  active: number;

  @ApiProperty({ type: 'integer' })
  paused: number;

  @ApiProperty({ type: 'integer' })
  completed: number;
}

class ExecutionCounts {
  @ApiProperty({ type: 'integer' })
  total: number;

  @ApiProperty({ type: 'integer' })
  success: number;

  @ApiProperty({ type: 'integer' })
  failed: number;
}

class NotificationCounts {
  @ApiProperty({ type: 'integer', description: 'Send attempts' })
  total: number;

  @ApiProperty({ type: 'integer' })
  failed: number;
}

export class PlatformStats {
  @ApiProperty()
  users: UserCounts;

  @ApiProperty()
  tasks: TaskCounts;

  @ApiProperty({ description: 'Executions created in the last 24 hours' })
  executions_24h: ExecutionCounts;

  @ApiProperty({ description: 'Send attempts of the last 24 hours' })
  notifications_24h: NotificationCounts;
}

interface StatsRow {
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

/** `GET /admin/stats`: counts across the platform, the last 24 hours for activity. */
@Injectable()
export class PlatformStatsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One round trip. The 24-hour windows use ix_executions_created_at and
   * ix_notification_sends_created_at; users and tasks are counted whole.
   */
  async collectStats(): Promise<PlatformStats> {
    const [row] = await queryRows<StatsRow>(
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
    return {
      users: { total: row.users_total, active: row.users_active },
      tasks: {
        total: row.tasks_total,
        active: row.tasks_active,
        paused: row.tasks_paused,
        completed: row.tasks_completed,
      },
      executions_24h: {
        total: row.executions_total,
        success: row.executions_success,
        failed: row.executions_failed,
      },
      notifications_24h: { total: row.notifications_total, failed: row.notifications_failed },
    };
  }
}
