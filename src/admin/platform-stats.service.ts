import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { AdminRepository } from './admin.repository';

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

/** `GET /admin/stats`: counts across the platform, the last 24 hours for activity. */
@Injectable()
export class PlatformStatsService {
  constructor(private readonly admin: AdminRepository) {}

  async collectStats(): Promise<PlatformStats> {
    const row = await this.admin.countPlatform();
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
