import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../database/sql-rows';
import type { NotificationConfig, NotificationType } from '../channels/channel-registry';

/** A task's configs and their failures in a row, as a delivery's outcome finds them. */
export interface TaskHealthRow {
  user_id: string;
  name: string;
  notifications: NotificationConfig[];
  notification_failures: Partial<Record<NotificationType, number>>;
}

/**
 * The tasks' side of channels that pause themselves (docs/attention.md, "Channels that pause
 * themselves"): configs' failures in a row and pauses, the owner's address for a notice.
 */
@Injectable()
export class ChannelHealthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The task's configs and failures in a row, locked for a change; null when it is gone. */
  async lockHealth(manager: EntityManager, taskId: string): Promise<TaskHealthRow | null> {
    const [task] = await queryRows<TaskHealthRow>(
      manager,
      `SELECT user_id, name, notifications, notification_failures FROM tasks
       WHERE id = $1 FOR NO KEY UPDATE`,
      [taskId],
    );
    return task ?? null;
  }

  /** Writes the configs (a pause) and one config's failures in a row. */
  async saveHealth(
    manager: EntityManager,
    taskId: string,
    notifications: NotificationConfig[],
    channel: NotificationType,
    failures: number,
  ): Promise<void> {
    await manager.query(
      `UPDATE tasks SET notifications = $2::jsonb,
         notification_failures = notification_failures || jsonb_build_object($3::text, $4::int)
       WHERE id = $1`,
      [taskId, JSON.stringify(notifications), channel, failures],
    );
  }

  /**
   * The account's email address when it is verified (an identity provider's `email_verified`, or
   * an address the operator set), or null.
   */
  async verifiedOwnerEmail(userId: string): Promise<string | null> {
    const [owner] = await queryRows<{ email: string | null }>(
      this.dataSource,
      'SELECT email FROM users WHERE id = $1 AND email_verified',
      [userId],
    );
    return owner?.email ?? null;
  }
}
