import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { Clock } from '../common/clock/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { NotificationChannelRegistry } from '../notifications/channels/channel-registry';
import { resumed } from '../notifications/channels/channel-pause';
import type { AcknowledgedAlertResponse } from './dto/alert-policy.dto';
import type { TaskEntity } from './task.entity';
import { standingAlert, type TaskResponse } from './task.mapper';
import { TaskRepository } from './task.repository';
import { TASK_NOT_FOUND, TaskQueries } from './task-queries.service';

export const NO_ALERT_TO_ACKNOWLEDGE = 'No alert to acknowledge';
export const NOTIFICATION_NOT_FOUND = 'Notification not found';

/**
 * What the owner does about a task's alerts (docs/attention.md): acknowledge the standing alert,
 * and resume a notification config that paused itself.
 */
@Injectable()
export class TaskAttentionService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly taskRows: TaskRepository,
    private readonly channels: NotificationChannelRegistry,
    private readonly clock: Clock,
    private readonly tasks: TaskQueries,
  ) {}

  /**
   * Acknowledges the standing alert, which stops its reminders; acknowledging it again answers
   * the first acknowledgement. 409 when no alert stands.
   */
  acknowledge(caller: AuthenticatedUser, id: string): Promise<AcknowledgedAlertResponse> {
    return this.changeOwned(caller, id, (task) => {
      const alert = standingAlert(task);
      if (alert === null) throw new ConflictException(NO_ALERT_TO_ACKNOWLEDGE);
      task.alertAcknowledgedAt ??= this.clock.now();
      return {
        acknowledged_execution_id: alert.execution_id,
        acknowledged_at: task.alertAcknowledgedAt.toISOString(),
      };
    });
  }

  /** Un-pauses the task's config of `type` and starts its count of failures afresh. */
  async resume(caller: AuthenticatedUser, id: string, type: string): Promise<TaskResponse> {
    const task = await this.changeOwned(caller, id, (task) => {
      const index = task.notifications.findIndex((config) => config.type === type);
      if (!this.channels.has(type) || index === -1)
        throw new NotFoundException(NOTIFICATION_NOT_FOUND);
      task.notifications = task.notifications.map((config, at) =>
        at === index ? resumed(config) : config,
      );
      task.notificationFailures = { ...task.notificationFailures, [type]: 0 };
      return task;
    });
    return this.tasks.toResponse(task);
  }

  /** Locks the caller's task, lets `change` edit it, and saves it. */
  private changeOwned<T>(
    caller: AuthenticatedUser,
    id: string,
    change: (task: TaskEntity) => T,
  ): Promise<T> {
    return this.transactions.run(async (manager) => {
      const task = await this.taskRows.lockOwned(manager, id, caller.id, 'change');
      if (!task) throw new NotFoundException(TASK_NOT_FOUND);
      const answer = change(task);
      await this.taskRows.save(manager, task);
      return answer;
    });
  }
}
