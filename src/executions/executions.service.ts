import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { JobQueueService } from '../scheduler/job-queue.service';
import { TaskEntity } from '../tasks/task.entity';
import { isUniqueViolation } from '../database/database-errors';
import { UsageService } from '../usage/usage.service';
import { ExecutionEntity, IN_FLIGHT_STATUSES, IN_FLIGHT_UNIQUE_INDEX } from './execution.entity';
import { toExecutionResponse, type ExecutionResponse } from './execution.mapper';
import { ExecutionRepository } from './execution.repository';
import type { ListExecutionsQueryDto } from './dto/list-executions-query.dto';
import { PAGE_DEFAULT } from '../common/dto/page-query.dto';
import { Clock } from '../common/clock/clock';

export const ALREADY_RUNNING = 'Task is already running or pending. Use force=true to override.';
export const CANCELLED_BY_FORCE = 'Cancelled by a forced run';

@Injectable()
export class ExecutionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly executionRows: ExecutionRepository,
    private readonly queue: JobQueueService,
    private readonly usage: UsageService,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a `pending` execution and its queue job in one transaction: the run survives a restart.
   * With `force`, an execution in flight is cancelled first (its worker then drops its result).
   */
  async requestRun(userId: string, taskId: string, force: boolean): Promise<ExecutionEntity> {
    return this.dataSource.transaction(async (manager) => {
      const task = await manager.findOne(TaskEntity, {
        where: { id: taskId, userId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!task) throw new NotFoundException('Task not found');
      return this.startRun(manager, taskId, force);
    });
  }

  /** The run itself, in the caller's transaction (which holds the task's row lock). */
  async startRun(manager: EntityManager, taskId: string, force: boolean): Promise<ExecutionEntity> {
    const inFlight = await manager.findBy(ExecutionEntity, {
      taskId,
      status: In(IN_FLIGHT_STATUSES),
    });
    if (inFlight.length > 0) {
      if (!force) throw new ConflictException(ALREADY_RUNNING);
      await manager.update(
        ExecutionEntity,
        { id: In(inFlight.map((execution) => execution.id)), status: In(IN_FLIGHT_STATUSES) },
        {
          status: 'cancelled',
          completedAt: this.clock.now(),
          errorMessage: CANCELLED_BY_FORCE,
          workerId: null,
        },
      );
    }
    const execution = await manager
      .save(manager.create(ExecutionEntity, { taskId, status: 'pending', trigger: 'manual' }))
      .catch((error: unknown) => {
        // A scheduled check claimed the task since the look above: it is the run in flight.
        if (isUniqueViolation(error, IN_FLIGHT_UNIQUE_INDEX))
          throw new ConflictException(ALREADY_RUNNING);
        throw error;
      });
    execution.jobId = await this.queue.enqueueRun(manager, taskId, execution.id);
    await manager.update(ExecutionEntity, { id: execution.id }, { jobId: execution.jobId });
    return execution;
  }

  /** `POST .../execute`: a run the caller asked for, within the caller's monthly budget. */
  async run(caller: AuthenticatedUser, taskId: string, force: boolean): Promise<ExecutionResponse> {
    await this.usage.assertWithinBudget(caller.id);
    return toExecutionResponse(await this.requestRun(caller.id, taskId, force));
  }

  /** History of a task, newest first: the owner's, or anyone's when the task is public. */
  async listForTask(
    caller: AuthenticatedUser | undefined,
    taskId: string,
    query: ListExecutionsQueryDto,
  ): Promise<ExecutionResponse[]> {
    const page = await this.executionRows.pageForTask(
      taskId,
      query.status,
      query.offset ?? 0,
      query.limit ?? PAGE_DEFAULT,
    );
    const viewer = page && caller?.id === page.ownerId ? 'owner' : 'public';
    if (!page || (viewer === 'public' && !page.isPublic))
      throw new NotFoundException('Task not found');
    return page.executions.map((execution) => toExecutionResponse(execution, viewer));
  }
}
