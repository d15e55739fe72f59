import { HttpException, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { ExecutionsService } from '../executions/executions.service';
import { IdempotencyScope } from '../idempotency/idempotency-scope';
import { verdictNeedsModel } from '../pages/rules/page-rule';
import { SearchProvider } from '../search/search-provider';
import { NO_PROVIDER_MESSAGE } from '../search/search-provider.registry';
import type { CreateTaskDto } from './dto/create-task.dto';
import type { TaskEntity } from './task.entity';
import { keptTaskAnswer, toTaskResponse, type CreatedTaskResponse } from './task.mapper';
import { TaskChanges } from './task-changes.service';
import type { FirstRun } from './task-schedule.service';

/**
 * `POST /api/v1/tasks`: the task and, with `run_immediately`, its first run, in one transaction;
 * with an `Idempotency-Key`, the answer is kept in it too.
 */
@Injectable()
export class TaskCreationService {
  constructor(
    private readonly tasks: TaskChanges,
    private readonly executions: ExecutionsService,
    private readonly provider: SearchProvider,
    private readonly idempotency: IdempotencyScope,
  ) {}

  async create(caller: AuthenticatedUser, dto: CreateTaskDto): Promise<CreatedTaskResponse> {
    let immediateExecutionError: string | null = null;
    // A new task has no last execution to embed.
    const answer = (task: TaskEntity): CreatedTaskResponse => ({
      ...toTaskResponse(task, 'owner'),
      immediate_execution_error: immediateExecutionError,
    });
    const firstRun: FirstRun = async (manager, task, refusal) => {
      // The transaction may run again after a lost lock conflict: only its last run counts.
      // Past the model-call limits there is no run, and the answer says why, as execute would.
      immediateExecutionError = refusal;
      if (refusal !== null) return false;
      try {
        // A savepoint: the task is created even when its first run cannot be queued.
        await manager.transaction((inner) => this.executions.startRun(inner, task.id, false));
      } catch (error) {
        immediateExecutionError = describe(error);
        return false;
      }
      // Queued, but it can only fail: say so now rather than leave the caller to find out. A page
      // rule calls no model (docs/pages.md, "Page rules"), so it runs without a provider.
      if (!this.provider.isConfigured() && verdictNeedsModel(task))
        immediateExecutionError = NO_PROVIDER_MESSAGE;
      return true;
    };
    const keepAnswer = async (manager: EntityManager, task: TaskEntity): Promise<void> => {
      const sent = answer(task);
      await this.idempotency.keepAnswer(manager, sent, keptTaskAnswer(sent));
    };
    const task = await this.tasks.create(
      caller,
      dto,
      dto.run_immediately ? firstRun : undefined,
      this.idempotency.isOpen ? keepAnswer : undefined,
    );
    return answer(task);
  }
}

function describe(error: unknown): string {
  return error instanceof HttpException || error instanceof Error
    ? error.message
    : 'The immediate run could not start';
}
