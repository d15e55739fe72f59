import type { AuthenticatedUser } from '../auth/authenticated-user';
import { defineOperation } from '../common/operations/operation';
import type { ExecuteTaskBodyDto } from './dto/execute-task.dto';
import type { ListExecutionsQueryDto } from './dto/list-executions-query.dto';
import { ExecutionsService } from './executions.service';

/*
 * The execution operations: each the body of a REST route and of the MCP tools that act as it
 * (docs/architecture.md, "One adapter per operation").
 */

/**
 * Runs a task now; `force` cancels a run in flight. Whether the run calls the model depends on
 * the task, so the service counts it in the right limit itself (`ExecutionsService.run`).
 */
export const executeTask = defineOperation({
  service: ExecutionsService,
  ids: ['id'],
  callsModel: false,
  run: (executions, caller: AuthenticatedUser, { id }, { force }: ExecuteTaskBodyDto) =>
    executions.run(caller, id, force ?? false),
});

export const listExecutions = defineOperation({
  service: ExecutionsService,
  ids: ['task_id'],
  callsModel: false,
  run: (
    executions,
    caller: AuthenticatedUser | undefined,
    { task_id: taskId },
    query: ListExecutionsQueryDto,
  ) => executions.listForTask(caller, taskId, query),
});
