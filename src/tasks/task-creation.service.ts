import { HttpException, Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { ExecutionsService } from '../executions/executions.service';
import type { CreateTaskDto } from './dto/create-task.dto';
import type { TaskResponse } from './task.mapper';
import { TasksService } from './tasks.service';

/** `POST /api/v1/tasks`: the task, then (with `run_immediately`) its first run. */
@Injectable()
export class TaskCreationService {
  constructor(
    private readonly tasks: TasksService,
    private readonly executions: ExecutionsService,
  ) {}

  async create(
    caller: AuthenticatedUser,
    dto: CreateTaskDto,
  ): Promise<TaskResponse & { immediate_execution_error: string | null }> {
    const task = await this.tasks.create(caller, dto);
    let immediateExecutionError: string | null = null;
    if (dto.run_immediately) {
      try {
        await this.executions.requestRun(caller.id, task.id, false);
      } catch (error) {
        // The task exists either way; the caller learns why its first run did not start.
        immediateExecutionError =
          error instanceof HttpException || error instanceof Error
            ? error.message
            : 'The immediate run could not start';
      }
    }
    return {
      ...(await this.tasks.toResponse(task)),
      immediate_execution_error: immediateExecutionError,
    };
  }
}
