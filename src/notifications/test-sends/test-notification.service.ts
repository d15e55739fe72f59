import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthenticatedUser } from '../../auth/authenticated-user';
import { TransactionRunner } from '../../database/transaction-runner';
import { failedAttempt } from '../delivery/attempt-outcome';
import { NotificationChannelRegistry } from '../channels/channel-registry';
import { channelOwner } from '../channels/notification-channel';
import { webhookIdFor } from '../delivery/delivery-job';
import type { TestNotificationResponse } from './dto/test-notification.dto';
import type { NotificationContent } from '../content/notification-content';
import { NotificationDeliveryRepository } from '../delivery/notification-delivery.repository';
import type { NotificationType } from '../channels/channel-registry';
import { Clock } from '../../common/clock/clock';
import { withDeadline } from '../../common/clock/deadline';
import { TIMED_OUT } from '../channels/http-delivery.service';
import { UsersService } from '../../users/users.service';

/**
 * The answer comes within 20 s (docs/api.md, "Notifications"): an attempt still going after this
 * long has failed.
 */
export const TEST_SEND_DEADLINE_MS = 18_000;

/**
 * Test sends: a `task.test` event through the task's configs now, one attempt each and no
 * retry, outside the queue, in any task state. Each attempt is a send record (`event: test`,
 * no execution).
 */
@Injectable()
export class TestNotificationService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly channels: NotificationChannelRegistry,
    private readonly repository: NotificationDeliveryRepository,
    private readonly clock: Clock,
    private readonly users: UsersService,
  ) {}

  async sendTestNotifications(
    caller: AuthenticatedUser,
    taskId: string,
    type: NotificationType | undefined,
  ): Promise<TestNotificationResponse> {
    const task = await this.repository.findTaskOfUser(taskId, caller.id);
    if (!task) throw new NotFoundException('Task not found');
    const configs = task.notifications.filter((config) => !type || config.type === type);
    if (configs.length === 0) {
      throw new BadRequestException(
        type ? `The task has no ${type} notification` : 'The task has no notifications',
      );
    }
    const now = this.clock.now();
    const content: NotificationContent = {
      event: 'test',
      task: {
        id: task.id,
        name: task.name,
        searchQuery: task.searchQuery,
        conditionDescription: task.conditionDescription,
      },
      execution: null,
      consecutiveFailures: 0,
      retractedExecutionId: null,
      repeat: null,
      folded: null,
      occurredAt: now,
    };
    const owner = channelOwner(caller.user);
    const attempts = await Promise.all(
      configs.map(async (config) => {
        const channel = this.channels.get(config.type);
        const deliveryId = randomUUID();
        const outcome = await withDeadline(
          channel.deliver(config, {
            owner,
            content,
            deliveryId,
            webhookId: webhookIdFor(deliveryId),
            attemptedAt: now,
          }),
          TEST_SEND_DEADLINE_MS,
          () => failedAttempt(TIMED_OUT, false),
        );
        return { config, channel, deliveryId, outcome };
      }),
    );
    // The sends went out; their records refer to the task, which a delete may have removed
    // meanwhile: then there is nothing to record and, as for the user, no such task (404). A
    // user deactivated meanwhile records nothing either and gets 401 (docs/api.md, "Admin").
    await this.transactions.run(async (manager) => {
      await this.users.lockActiveUser(manager, caller.id);
      if ((await this.repository.holdTasks(manager, [task.id])).size === 0)
        throw new NotFoundException('Task not found');
      await this.repository.insertSends(
        manager,
        attempts.map(({ config, channel, deliveryId, outcome }) => ({
          deliveryId,
          userId: task.userId,
          taskId: task.id,
          executionId: null,
          recipient: channel.maskedRecipient(config),
          notificationType: config.type,
          event: 'test',
          status: outcome.status,
          errorMessage: outcome.errorMessage,
          attempt: 1,
          attemptedAt: now,
        })),
      );
    });
    return {
      results: attempts.map(({ config, outcome }) => ({
        notification_type: config.type,
        status: outcome.status,
        error_message: outcome.errorMessage,
      })),
    };
  }
}
