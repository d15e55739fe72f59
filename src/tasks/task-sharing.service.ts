import { resumed } from '../notifications/channels/channel-pause';
import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { TransactionRunner } from '../database/transaction-runner';
import { IdempotencyScope } from '../idempotency/idempotency-scope';
import { NotificationChannelRegistry } from '../notifications/channels/channel-registry';
import { UsersService } from '../users/users.service';
import { NAME_MAX } from './dto/create-task.dto';
import type { NotificationConfig } from '../notifications/channels/channel-registry';
import { keptTaskAnswer, toTaskResponse, withoutHeaders, type TaskResponse } from './task.mapper';
import { PublicTaskRepository } from './public-task.repository';
import { TaskRepository } from './task.repository';
import { TASK_NOT_FOUND } from './task-queries.service';
import { TaskSchedule } from './task-schedule.service';
import { Clock } from '../common/clock/clock';

export const USERNAME_REQUIRED = 'A username must be set before a task can be made public';

export class VisibilityResponse {
  @ApiProperty()
  is_public: boolean;
}

/** `(Copy)`, then `(Copy 2)` up to `(Copy 5)`: after that the caller must pick a name. */
export const MAX_COPY_NAME_ATTEMPTS = 5;

/** Visibility and forks (docs/api.md, "Tasks"). */
@Injectable()
export class TaskSharingService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tasks: TaskRepository,
    private readonly publicTasks: PublicTaskRepository,
    private readonly users: UsersService,
    private readonly taskLimits: TaskSchedule,
    private readonly channels: NotificationChannelRegistry,
    private readonly clock: Clock,
    private readonly idempotency: IdempotencyScope,
  ) {}

  /**
   * Owner only. Making a task public needs a username (read in the same statement, so a username
   * set a moment ago counts); making it private never does. The caller must still be active
   * (docs/api.md, "Admin"): the user row is held first, as in every write.
   */
  async setVisibility(
    caller: AuthenticatedUser,
    taskId: string,
    isPublic: boolean,
  ): Promise<VisibilityResponse> {
    const changed = await this.transactions.run(async (manager) => {
      await this.users.lockActiveUser(manager, caller.id);
      return this.tasks.setVisibility(manager, taskId, caller.id, isPublic);
    });
    if (changed) return { is_public: isPublic };
    if (!(await this.tasks.isOwnedBy(taskId, caller.id)))
      throw new NotFoundException(TASK_NOT_FOUND);
    throw new BadRequestException(USERNAME_REQUIRED);
  }

  /**
   * Copies a public task (or one of the caller's own) as a new paused, private task of the caller.
   * Another user's notification config and page headers never travel (its addresses, hook URLs,
   * cookies and tokens are theirs); the caller's own do, as each channel copies it for a fork (a
   * webhook gets a new signing secret). A paused task has no check job, so none is created. With
   * an `Idempotency-Key`, the answer is kept in the fork's transaction.
   */
  async fork(
    caller: AuthenticatedUser,
    sourceId: string,
    requestedName: string | undefined,
  ): Promise<TaskResponse> {
    return this.transactions.run(async (manager) => {
      // The caller, then the source (kept from deletion until the fork, which refers to it, commits).
      // A fork is a task under the per-user cap: the caller's row is then held exclusively.
      await this.users.lockActiveUser(
        manager,
        caller.id,
        this.taskLimits.taskCapApplies ? 'exclusive' : 'share',
      );
      await this.taskLimits.reserveTaskSlot(manager, caller.id);
      const source = await this.tasks.keepFromDeletion(manager, sourceId);
      const ownTask = source !== null && source.userId === caller.id;
      if (!source || (!ownTask && !source.isPublic)) throw new NotFoundException(TASK_NOT_FOUND);
      const name = requestedName ?? (await this.freeCopyName(manager, caller.id, source.name));
      const now = this.clock.now();
      const created = await this.tasks.insertFork(manager, {
        userId: caller.id,
        name,
        searchQuery: source.searchQuery,
        conditionDescription: source.conditionDescription,
        notifyBehavior: source.notifyBehavior,
        // Neither holds a secret (docs/api.md, "Tasks"): a fork extracts and judges as its source
        // does.
        outputSchema: source.outputSchema,
        evidence: source.evidence,
        // Page headers are secrets as notification configs are: only the owner's own fork keeps
        // them.
        pages: ownTask || source.pages === null ? source.pages : source.pages.map(withoutHeaders),
        pageRule: source.pageRule,
        alertPolicy: source.alertPolicy,
        notifications: ownTask ? this.copyForOwnFork(source.notifications) : [],
        state: 'paused',
        isPublic: false,
        nextRun: null,
        forkedFromTaskId: source.id,
        stateChangedAt: now,
      });
      if (!ownTask) await this.publicTasks.countSubscriber(manager, source.id, caller.id);
      const answer = toTaskResponse(created, 'owner');
      await this.idempotency.keepAnswer(manager, answer, keptTaskAnswer(answer));
      return answer;
    });
  }

  private copyForOwnFork(configs: NotificationConfig[]): NotificationConfig[] {
    // A fork starts with its configs resumed (docs/attention.md, "Channels that pause themselves").
    return configs.map((config) => resumed(this.channels.get(config.type).copyForOwnFork(config)));
  }

  /**
   * The first of `{name} (Copy)`, `{name} (Copy 2)`... the caller has no task with, the base cut
   * so the whole name fits in NAME_MAX. Forks by one user are serialised by a transaction-scoped
   * advisory lock, so two at once cannot both pick the same free name.
   */
  private async freeCopyName(
    manager: EntityManager,
    userId: string,
    sourceName: string,
  ): Promise<string> {
    await this.tasks.lockForksOf(manager, userId);
    const candidates = Array.from({ length: MAX_COPY_NAME_ATTEMPTS }, (_, index) =>
      withSuffix(sourceName, index === 0 ? ' (Copy)' : ` (Copy ${index + 1})`),
    );
    const takenNames = await this.tasks.namesTaken(manager, userId, candidates);
    const free = candidates.find((candidate) => !takenNames.has(candidate));
    if (free === undefined) {
      throw new ConflictException(
        `A task named "${candidates[candidates.length - 1]}" already exists: send a name for the fork`,
      );
    }
    return free;
  }
}

/** Cuts by code point, not UTF-16 unit, so an emoji at the cut is not split in half. */
function withSuffix(base: string, suffix: string): string {
  const room = NAME_MAX - suffix.length;
  const characters = Array.from(base);
  return `${characters.length > room ? characters.slice(0, room).join('').trimEnd() : base}${suffix}`;
}
