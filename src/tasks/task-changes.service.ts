import { isDeepStrictEqual } from 'node:util';
import {
  HttpException,
  Injectable,
  InternalServerErrorException,
  NotFoundException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { Clock } from '../common/clock/clock';
import { isDatabaseUnavailable } from '../database/database-errors';
import { TransactionRunner } from '../database/transaction-runner';
import { PageSnapshotRepository } from '../pages/snapshots/page-snapshot.repository';
import { UsersService } from '../users/users.service';
import type { CreateTaskDto } from './dto/create-task.dto';
import type { UpdateTaskDto } from './dto/update-task.dto';
import { TaskDefinitions } from './task-definitions.service';
import { TASK_NOT_FOUND, TaskQueries } from './task-queries.service';
import { TaskSchedule, type FirstRun } from './task-schedule.service';
import type { TaskEntity } from './task.entity';
import type { TaskResponse } from './task.mapper';
import type { TaskState } from './task-state';
import { TaskRepository, type NewTask } from './task.repository';

/** The 500 of a state change rolled back: a fixed reason, the database's own words go to the log. */
export const TASK_STATE_CHANGE_FAILED =
  'Failed to change task state: database error. Task update rolled back.';

/** The changes of tasks: create, update and delete, each in one transaction. */
@Injectable()
export class TaskChanges {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly users: UsersService,
    private readonly definitions: TaskDefinitions,
    private readonly schedule: TaskSchedule,
    private readonly taskRows: TaskRepository,
    private readonly queries: TaskQueries,
    private readonly pageSnapshots: PageSnapshotRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a task and, when it is active, its first check (due now). `firstRun` may queue a run
   * instead (`run_immediately`); that run's result schedules the next. Either is a model call
   * made at once, counted as execute's (`TaskSchedule.startFirstCheck`). `beforeCommit` runs
   * last in the create's transaction (the caller keeps its answer there).
   */
  async create(
    caller: AuthenticatedUser,
    dto: CreateTaskDto,
    firstRun?: FirstRun,
    beforeCommit?: (manager: EntityManager, task: TaskEntity) => Promise<void>,
  ): Promise<TaskEntity> {
    const definition = this.definitions.read(dto, null);
    await this.definitions.checkPages(definition.pages);
    const notifications = await this.definitions.notifications(caller, dto.notifications ?? []);
    const state = dto.state ?? 'active';
    const now = this.clock.now();
    // A new active task gets its first check right away: the agent picks the pace after it. A
    // `firstRun` queued instead schedules it from its result.
    const checkJobId = state === 'active' && !firstRun ? randomUUID() : null;
    const fields: NewTask = {
      ...definition,
      id: randomUUID(),
      userId: caller.id,
      state,
      notifications,
      nextRun: state === 'active' ? now : null,
      stateChangedAt: now,
      checkJobId,
    };
    const caps = this.schedule.capsFor(state);
    const capped = caps.tasks !== 0 || caps.active !== 0;
    // No cap to take and nothing to queue or keep: the one statement needs no transaction.
    if (!capped && state !== 'active' && !firstRun && !beforeCommit)
      return this.schedule.insertTask(fields, caps);
    return this.inTransaction(dto.state, async (manager) => {
      // A task takes a place under the caps: those of one user are taken one at a time.
      if (capped) await this.users.lockActiveUser(manager, caller.id, 'exclusive');
      const task = await this.schedule.insertTask(fields, caps, manager);
      if (state === 'active' || firstRun)
        await this.schedule.startFirstCheck(manager, task, { firstRun, checkJobId, now });
      await beforeCommit?.(manager, task);
      return task;
    });
  }

  /** Changes the fields sent; answers the task as its owner sees it. */
  async update(caller: AuthenticatedUser, id: string, dto: UpdateTaskDto): Promise<TaskResponse> {
    const current = await this.queries.findOwned(caller, id);
    // Read on the task as it is first, so that a refused request looks no host up.
    const given = this.definitions.read(dto, current);
    if (dto.pages !== undefined) await this.definitions.checkPages(given.pages);
    const notifications =
      dto.notifications === undefined
        ? undefined
        : await this.definitions.notifications(caller, dto.notifications, current.notifications);
    // An activation takes a slot under the cap: the user's row is then held exclusively.
    const capped = dto.state === 'active' && this.schedule.activeCapApplies;
    const saved = await this.inTransaction(dto.state, async (manager) => {
      // Lock order (docs/architecture.md, "One lock order"): the user, the task, then its job.
      await this.users.lockActiveUser(manager, caller.id, capped ? 'exclusive' : 'share');
      const task = await this.taskRows.lockOwned(manager, id, caller.id, 'change');
      if (!task) throw new NotFoundException(TASK_NOT_FOUND);
      const askedBefore = checkInputs(task);
      const pagesBefore = task.pages ?? [];
      // Read again on the task as locked: a change since may have moved what the rules rest on.
      Object.assign(task, this.definitions.read(dto, task));
      if (notifications !== undefined) {
        // Saving the configs resumes paused ones and starts their counts afresh
        // (docs/attention.md, "Channels that pause themselves").
        task.notifications = notifications;
        task.notificationFailures = {};
      }
      if (dto.state !== undefined) await this.schedule.transition(manager, task, dto.state);
      task.updatedAt = this.clock.now();
      const saved = await this.taskRows.save(manager, task);
      // The pages it no longer names leave no snapshot behind (docs/pages.md, "Snapshots").
      if (dto.pages !== undefined)
        await this.pageSnapshots.keepOnly(manager, task.id, task.pages ?? [], pagesBefore);
      if (!isDeepStrictEqual(checkInputs(task), askedBefore))
        await this.taskRows.markCheckInputsChanged(manager, task.id);
      return saved;
    });
    return this.queries.toResponse(saved);
  }

  async remove(caller: AuthenticatedUser, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      // The user, the task (FOR UPDATE: its key goes), its job, then what the delete cascades to.
      await this.users.lockActiveUser(manager, caller.id);
      const task = await this.taskRows.lockOwned(manager, id, caller.id, 'delete');
      if (!task) throw new NotFoundException(TASK_NOT_FOUND);
      await this.schedule.removeCheck(manager, task);
      await this.taskRows.delete(manager, id);
    });
  }

  /**
   * Runs a request's changes in one transaction. When the request changes the state and anything
   * fails (the scheduler, typically), everything is rolled back and the answer is the documented
   * 500 (docs/api.md, "Errors") with a fixed reason; the error itself goes to the log (the
   * filter logs the cause). An unreachable database is the filter's 503.
   */
  private async inTransaction<T>(
    stateChange: TaskState | undefined,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.transactions.run(work);
    } catch (error) {
      if (
        error instanceof HttpException ||
        stateChange === undefined ||
        isDatabaseUnavailable(error)
      ) {
        throw error;
      }
      throw new InternalServerErrorException(TASK_STATE_CHANGE_FAILED, { cause: error });
    }
  }
}

/** What a task's checks ask: a page check carries no verdict given to another question. */
function checkInputs(task: TaskEntity): unknown[] {
  return [
    task.searchQuery,
    task.conditionDescription,
    task.outputSchema,
    task.pages,
    task.pageRule,
  ];
}
