import { HttpException, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { ExecutionsService } from '../executions/executions.service';
import { SearchProvider } from '../search/search-provider';
import { NO_PROVIDER_MESSAGE } from '../search/search-provider.registry';
import type { CreateTaskDto } from './dto/create-task.dto';
import type { CreatedTaskResponse } from './task.mapper';
import { TasksService, type FirstRun } from './tasks.service';

/** `POST /api/v1/tasks`: the task and, with `run_immediately`, its first run, in one transaction. */
@Injectable()
export class TaskCreationService {
  constructor(
    private readonly tasks: TasksService,
    private readonly executions: ExecutionsService,
    private readonly provider: SearchProvider,
  ) {}

  async create(caller: AuthenticatedUser, dto: CreateTaskDto): Promise<CreatedTaskResponse> {
    let immediateExecutionError: string | null = null;
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
      // Queued, but it can only fail: say so now rather than leave the caller to find out.
      if (!this.provider.isConfigured()) immediateExecutionError = NO_PROVIDER_MESSAGE;
      return true;
    };
    const task = await this.tasks.create(caller, dto, dto.run_immediately ? firstRun : undefined);
    return {
      ...(await this.tasks.toResponse(task)),
      immediate_execution_error: immediateExecutionError,
    };
  }
}

function describe(error: unknown): string {
  return error instanceof HttpException || error instanceof Error
    ? error.message
    : 'The immediate run could not start';
}
