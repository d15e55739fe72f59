import {
  ConflictException,
  HttpException,
  Injectable,
  InternalServerErrorException,
  NotFoundException,
} from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager, type Repository } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { InjectConfig } from '../config/config-slice';
import { ExecutionEntity } from '../executions/execution.entity';
import { UserEntity } from '../users/user.entity';
import { channelOwner } from '../notifications/channels/notification-channel';
import { NotificationConfigValidator } from '../notifications/notification-config.validator';
import { JobQueueService } from '../scheduler/job-queue.service';
import type { CreateTaskDto } from './dto/create-task.dto';
import type { UpdateTaskDto } from './dto/update-task.dto';
import { DEFAULT_TASK_NAME, TaskEntity, type TaskState } from './task.entity';
import { toTaskResponse, type TaskResponse } from './task.mapper';
import { TaskRepository, type NewTask } from './task.repository';
import { planTransition } from './task-state-machine';
import { Clock } from '../common/clock/clock';
import { tasksConfig, type TasksConfig } from './tasks.config';

export const TASK_NOT_FOUND = 'Task not found';

@Injectable()
export class TasksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    @InjectRepository(ExecutionEntity) private readonly executions: Repository<ExecutionEntity>,
    private readonly notificationConfigs: NotificationConfigValidator,
    private readonly queue: JobQueueService,
    @InjectConfig(tasksConfig) private readonly config: TasksConfig,
    private readonly taskRows: TaskRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a task and, when it is active, its first check (due now). `firstRun` may queue a run
   * instead (`run_immediately`, answering whether it did); that run's result schedules the next.
   */
  async create(
    caller: AuthenticatedUser,
    dto: CreateTaskDto,
    firstRun?: (manager: EntityManager, task: TaskEntity) => Promise<boolean>,
  ): Promise<TaskEntity> {
    const notifications = await this.notificationConfigs.validate(
      dto.notifications ?? [],
      channelOwner(caller.user),
    );
    const state = dto.state ?? 'active';
    const now = this.clock.now();
    const fields: NewTask = {
      userId: caller.id,
      name: dto.name ?? DEFAULT_TASK_NAME,
      searchQuery: dto.search_query,
      conditionDescription: dto.condition_description ?? dto.search_query,
      state,
      notifyBehavior: dto.notify_behavior ?? 'once',
      notifications,
      // A new active task gets its first check right away: the agent picks the pace after it.
      nextRun: state === 'active' ? now : null,
      stateChangedAt: now,
    };
    // A task that is not active and runs nothing is one statement: no transaction to hold.
    if (state !== 'active' && !firstRun)
      return this.taskRows.insert(this.dataSource.manager, fields);
    return this.inTransaction(dto.state, async (manager) => {
      if (state === 'active') await this.reserveActiveSlot(manager, caller.id);
      const task = await this.taskRows.insert(manager, fields);
      const runQueued = firstRun ? await firstRun(manager, task) : false;
      if (!runQueued && state === 'active') await this.attachNewCheck(manager, task, now);
      return task;
    });
  }

  async listOwn(caller: AuthenticatedUser, state?: TaskState): Promise<TaskResponse[]> {
    const tasks = await this.taskRows.listOwned(caller.id, state);
    return tasks.map(({ task, lastExecution }) => toTaskResponse(task, 'owner', lastExecution));
  }

  /** Owner: the full task. Anyone else: the scrubbed view of a public task, or 404. */
  async getVisible(caller: AuthenticatedUser | undefined, id: string): Promise<TaskResponse> {
    const found = await this.taskRows.findById(id);
    if (!found) throw new NotFoundException(TASK_NOT_FOUND);
    const viewer = caller?.id === found.task.userId ? 'owner' : 'public';
    if (viewer === 'public' && !found.task.isPublic) throw new NotFoundException(TASK_NOT_FOUND);
    return toTaskResponse(found.task, viewer, found.lastExecution);
  }

  async findOwned(caller: AuthenticatedUser, id: string): Promise<TaskEntity> {
    const task = await this.tasks.findOneBy({ id, userId: caller.id });
    if (!task) throw new NotFoundException(TASK_NOT_FOUND);
    return task;
  }

  async toResponse(task: TaskEntity): Promise<TaskResponse> {
    return (await this.toResponses([task], 'owner'))[0];
  }

  async update(caller: AuthenticatedUser, id: string, dto: UpdateTaskDto): Promise<TaskEntity> {
    const current = await this.findOwned(caller, id);
    const notifications =
      dto.notifications === undefined
        ? undefined
        : await this.notificationConfigs.validate(
            dto.notifications,
            channelOwner(caller.user),
            current.notifications,
          );
    return this.inTransaction(dto.state, async (manager) => {
      const task = await manager.findOne(TaskEntity, {
        where: { id, userId: caller.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!task) throw new NotFoundException(TASK_NOT_FOUND);
      if (dto.name !== undefined) task.name = dto.name;
      if (dto.search_query !== undefined) task.searchQuery = dto.search_query;
      if (dto.condition_description !== undefined)
        task.conditionDescription = dto.condition_description;
      if (dto.notify_behavior !== undefined) task.notifyBehavior = dto.notify_behavior;
      if (notifications !== undefined) task.notifications = notifications;
      if (dto.state !== undefined) await this.transition(manager, task, dto.state);
      task.updatedAt = this.clock.now();
      return manager.save(task);
    });
  }

  async remove(caller: AuthenticatedUser, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const task = await manager.findOne(TaskEntity, {
        where: { id, userId: caller.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!task) throw new NotFoundException(TASK_NOT_FOUND);
      await this.queue.removeCheck(manager, task.checkJobId);
      await manager.delete(TaskEntity, { id });
    });
  }

  /** Applies a user-requested state change and its scheduler side in the caller's transaction. */
  private async transition(manager: EntityManager, task: TaskEntity, to: TaskState): Promise<void> {
    const action = planTransition(task.state, to);
    if (action === 'none') return;
    const now = this.clock.now();
    if (action === 'remove-job') {
      await this.queue.removeCheck(manager, task.checkJobId);
      task.checkJobId = null;
      task.nextRun = null;
    }
    task.state = to;
    task.stateChangedAt = now;
    if (action === 'create-job') {
      await this.reserveActiveSlot(manager, task.userId);
      task.nextRun = now;
      await this.attachNewCheck(manager, task, now);
    }
  }

  /**
   * 409 when one more active task would pass `MAX_ACTIVE_TASKS_PER_USER`. The user's row lock
   * serialises the user's activations, so concurrent requests cannot both take the last slot.
   */
  private async reserveActiveSlot(manager: EntityManager, userId: string): Promise<void> {
    const cap = this.config.maxActiveTasksPerUser;
    if (cap === 0) return;
    await manager.findOne(UserEntity, {
      where: { id: userId },
      lock: { mode: 'pessimistic_write' },
    });
    const active = await manager.countBy(TaskEntity, { userId, state: 'active' });
    if (active >= cap) throw new ConflictException(`Active task limit reached (${cap})`);
  }

  private async attachNewCheck(
    manager: EntityManager,
    task: TaskEntity,
    runAt: Date,
  ): Promise<void> {
    task.checkJobId = await this.queue.scheduleCheck(manager, task.id, runAt);
    await manager.update(
      TaskEntity,
      { id: task.id },
      { checkJobId: task.checkJobId, nextRun: runAt },
    );
  }

  /**
   * Runs a request's changes in one transaction. When the request changes the state and anything
   * fails (the scheduler, typically), everything is rolled back and the answer is the documented
   * 500 (docs/api.md, "Errors").
   */
  private async inTransaction<T>(
    stateChange: TaskState | undefined,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } catch (error) {
      if (error instanceof HttpException || stateChange === undefined) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new InternalServerErrorException(
        `Failed to change task state: ${reason}. Task update rolled back.`,
      );
    }
  }

  /** Tasks as `viewer` sees them, each with its last execution embedded (one query for all). */
  async toResponses(tasks: TaskEntity[], viewer: 'owner' | 'public'): Promise<TaskResponse[]> {
    const ids = tasks.map((task) => task.lastExecutionId).filter((id): id is string => id !== null);
    const executions = ids.length > 0 ? await this.executions.findBy({ id: In(ids) }) : [];
    const byId = new Map(executions.map((execution) => [execution.id, execution]));
    return tasks.map((task) =>
      toTaskResponse(
        task,
        viewer,
        task.lastExecutionId ? (byId.get(task.lastExecutionId) ?? null) : null,
      ),
    );
  }
}
