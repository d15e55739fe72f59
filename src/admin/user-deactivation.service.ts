import {
  BadRequestException,
  HttpException,
  Injectable,
  InternalServerErrorException,
  NotFoundException,
} from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { UuidProperty } from '../common/openapi/schema-properties';
import { isDatabaseUnavailable } from '../database/database-errors';
import { TransactionRunner } from '../database/transaction-runner';
import { NotificationDeliveryService } from '../notifications/delivery/notification-delivery.service';
import { JobQueueService } from '../scheduler/job-queue.service';
import { TaskRepository } from '../tasks/task.repository';
import { UserRepository } from '../users/user.repository';
import { Clock } from '../common/clock/clock';
import { ExecutionRepository } from '../executions/execution.repository';

export const USER_NOT_FOUND = 'User not found';
export const CANNOT_DEACTIVATE_SELF = 'Administrators cannot deactivate their own account';
export const USER_DEACTIVATION_FAILED =
  'Failed to deactivate user: database error. Nothing was changed.';
export const CANCELLED_BY_DEACTIVATION = 'Cancelled: the account was deactivated';

export class UserDeactivated {
  @ApiProperty({ enum: ['deactivated'] })
  status: 'deactivated';

  @UuidProperty()
  user_id: string;

  @ApiProperty({ type: 'integer', description: "How many of the user's tasks were paused" })
  tasks_paused: number;
}

export class UserReactivated {
  @ApiProperty({ enum: ['active'] })
  status: 'active';

  @UuidProperty()
  user_id: string;
}

/**
 * `PATCH /admin/users/{id}/deactivate`: the user's active tasks are paused. The user,
 * their tasks, runs and notification deliveries, and the queue change in one transaction, so a
 * scheduler failure leaves everything as it was. Data is kept; the auth service refuses the user's API keys and JWTs from then on.
 * `PATCH /admin/users/{id}/reactivate` undoes it for the credentials only: the tasks stay paused
 * until their owner resumes them (docs/api.md, "Admin").
 */
@Injectable()
export class UserDeactivationService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: UserRepository,
    private readonly tasks: TaskRepository,
    private readonly queue: JobQueueService,
    private readonly executions: ExecutionRepository,
    private readonly deliveries: NotificationDeliveryService,
    private readonly clock: Clock,
  ) {}

  /**
   * Idempotent: deactivating a deactivated user answers 200 again with `tasks_paused` 0 (and
   * keeps the first `deactivated_at`).
   */
  async deactivateUser(admin: AuthenticatedUser, userId: string): Promise<UserDeactivated> {
    // An administrator locking themselves out is always a mistake; another admin can do it.
    if (userId === admin.id) throw new BadRequestException(CANNOT_DEACTIVATE_SELF);
    try {
      return await this.deactivateInTransaction(userId);
    } catch (error) {
      if (error instanceof HttpException || isDatabaseUnavailable(error)) throw error;
      // Like a failed task state change (a 500 after a rollback): say what failed and that
      // nothing changed; the database's own message goes to the log only (docs/api.md, "Errors").
      throw new InternalServerErrorException(USER_DEACTIVATION_FAILED, { cause: error });
    }
  }

  /**
   * Lock order (docs/architecture.md, "One lock order"): the user (FOR NO KEY UPDATE: requests of
   * the user, which hold it FOR SHARE, finish first or find it deactivated; rows inserted for the
   * user do not wait), then every task of the user in id order, then their jobs, executions and
   * deliveries.
   */
  private deactivateInTransaction(userId: string): Promise<UserDeactivated> {
    return this.transactions.run(async (manager) => {
      const user = await this.users.lockForStateChange(manager, userId);
      if (!user) throw new NotFoundException(USER_NOT_FOUND);
      const now = this.clock.now();
      const active = (await this.tasks.lockAllOfUser(manager, userId)).filter(
        (task) => task.state === 'active',
      );
      await this.queue.removeChecks(
        manager,
        active.map((task) => task.checkJobId).filter((jobId): jobId is string => jobId !== null),
      );
      await this.tasks.pause(
        manager,
        active.map((task) => task.id),
        now,
      );
      // Runs already queued would still call the provider and notify: cancel them. A worker
      // midway through one drops its result, as it does after a forced run.
      await this.executions.cancelInFlightOfUser(manager, userId, CANCELLED_BY_DEACTIVATION);
      // Notifications already decided would still go out, and failed ones be retried for
      // days: the queued, retrying and under-way deliveries are cancelled too.
      await this.deliveries.cancelDeliveriesOfUser(manager, userId, CANCELLED_BY_DEACTIVATION);
      if (user.state !== 'deactivated') await this.users.markDeactivated(manager, userId, now);
      return { status: 'deactivated', user_id: userId, tasks_paused: active.length };
    });
  }

  /**
   * Idempotent: reactivating an active user answers 200 again and changes nothing. The user row
   * is locked as a deactivation locks it, so the two run one after the other.
   */
  reactivateUser(userId: string): Promise<UserReactivated> {
    return this.transactions.run(async (manager) => {
      const user = await this.users.lockForStateChange(manager, userId);
      if (!user) throw new NotFoundException(USER_NOT_FOUND);
      if (user.state !== 'active') {
        await this.users.markReactivated(manager, userId, this.clock.now());
      }
      return { status: 'active', user_id: userId };
    });
  }
}
