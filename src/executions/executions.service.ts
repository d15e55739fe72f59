import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { JobQueueService } from '../scheduler/job-queue.service';
import { isUniqueViolation } from '../database/database-errors';
import { TransactionRunner } from '../database/transaction-runner';
import { IdempotencyScope } from '../idempotency/idempotency-scope';
import { ModelCallQuotaService } from '../usage/model-call-quota.service';
import { verdictNeedsModel } from '../pages/rules/page-rule';
import { pagesWithHeaders } from '../pages/targets/pages-with-headers';
import { UsersService } from '../users/users.service';
import { CheckScheduleRepository } from './checks/check-schedule.repository';
import { IN_FLIGHT_UNIQUE_INDEX, type ExecutionEntity } from './execution.entity';
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
    private readonly transactions: TransactionRunner,
    private readonly executionRows: ExecutionRepository,
    private readonly schedule: CheckScheduleRepository,
    private readonly users: UsersService,
    private readonly queue: JobQueueService,
    private readonly runs: ModelCallQuotaService,
    private readonly clock: Clock,
    private readonly idempotency: IdempotencyScope,
  ) {}

  /**
   * `POST .../execute`: creates a `pending` execution and its queue job in one transaction, so the
   * run survives a restart. The run counts in the caller's limits in that transaction: a task
   * whose verdict needs no model in the page checks, any other in the model calls and under the
   * monthly budget (docs/api.md, "Rate limits"). With `force`, an execution in flight is cancelled
   * first (its worker then drops its result). With an `Idempotency-Key`, the answer is kept in the
   * same transaction.
   */
  async run(caller: AuthenticatedUser, taskId: string, force: boolean): Promise<ExecutionResponse> {
    return this.transactions.run(async (manager) => {
      // Lock order (docs/architecture.md, "One lock order"): the user, the task, then its
      // executions and job.
      await this.users.lockActiveUser(manager, caller.id);
      const task = await this.schedule.lockTaskOfUser(manager, taskId, caller.id);
      if (task === null) throw new NotFoundException('Task not found');
      await this.runs.countExecute(manager, caller.id, verdictNeedsModel(task));
      const answer = toExecutionResponse(await this.startRun(manager, taskId, force));
      await this.idempotency.keepAnswer(manager, answer);
      return answer;
    });
  }

  /** The run itself, in the caller's transaction (which holds the task's row lock). */
  async startRun(manager: EntityManager, taskId: string, force: boolean): Promise<ExecutionEntity> {
    const inFlight = await this.executionRows.findInFlight(manager, taskId);
    if (inFlight.length > 0) {
      if (!force) throw new ConflictException(ALREADY_RUNNING);
      await this.executionRows.cancelInFlight(
        manager,
        inFlight.map((execution) => execution.id),
        CANCELLED_BY_FORCE,
        this.clock.now(),
      );
    }
    const execution = await this.executionRows
      .insertManualRun(manager, taskId)
      .catch((error: unknown) => {
        // A scheduled check claimed the task since the look above: it is the run in flight.
        if (isUniqueViolation(error, IN_FLIGHT_UNIQUE_INDEX))
          throw new ConflictException(ALREADY_RUNNING);
        throw error;
      });
    execution.jobId = await this.queue.enqueueRun(manager, taskId, execution.id);
    await this.executionRows.setJobId(manager, execution.id, execution.jobId);
    return execution;
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
    const owner = page !== null && caller?.id === page.ownerId;
    if (!page || (!owner && !page.isPublic)) throw new NotFoundException('Task not found');
    const viewer = owner ? 'owner' : { pagesWithHeaders: pagesWithHeaders(page.pages) };
    return page.executions.map((execution) => toExecutionResponse(execution, viewer));
  }
}
