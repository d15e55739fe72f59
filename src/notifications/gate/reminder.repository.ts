import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryRows } from '../../database/sql-rows';

/** The tasks' side of reminders in the delivery gate (docs/attention.md, "Reminders"). */
@Injectable()
export class ReminderRepository {
  /** Locks tasks for a change, in id order (FOR NO KEY UPDATE). */
  async lockTasks(manager: EntityManager, taskIds: string[]): Promise<void> {
    await queryRows(
      manager,
      'SELECT id FROM tasks WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE',
      [[...new Set(taskIds)]],
    );
  }

  /** Counts the `repeat`-th reminder of the alert `executionId` raised, while it still stands. */
  async countReminder(
    manager: EntityManager,
    taskId: string,
    executionId: string,
    repeat: number,
  ): Promise<void> {
    await manager.query(
      `UPDATE tasks SET alert_repeats_sent = greatest(alert_repeats_sent, $3)
       WHERE id = $1 AND alert_execution_id = $2`,
      [taskId, executionId, repeat],
    );
  }
}
