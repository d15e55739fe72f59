import type { Type } from '@nestjs/common';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { ExecuteTaskBodyDto } from '../executions/dto/execute-task.dto';
import { ListExecutionsQueryDto } from '../executions/dto/list-executions-query.dto';
import { ExecutionResponse } from '../executions/execution.mapper';
import { ExecutionsController } from '../executions/executions.controller';
import type { ExecutionsService } from '../executions/executions.service';
import { PAGE_DEFAULT } from '../common/dto/page-query.dto';
import { CreateTaskDto } from '../tasks/dto/create-task.dto';
import { PreviewTaskDto } from '../tasks/dto/preview-task.dto';
import { SuggestTaskDto } from '../tasks/dto/suggest-task.dto';
import { UpdateTaskDto } from '../tasks/dto/update-task.dto';
import {
  PreviewResponse,
  SuggestResponse,
  type GroundedSearchService,
} from '../tasks/grounded-search.service';
import { CreatedTaskResponse, TaskResponse } from '../tasks/task.mapper';
import type { TaskCreationService } from '../tasks/task-creation.service';
import { TasksController } from '../tasks/tasks.controller';
import type { TasksService } from '../tasks/tasks.service';
import { UsageQueryDto } from '../usage/dto/usage-query.dto';
import { MonthlyUsageResponse } from '../usage/dto/usage-responses';
import { UsageController } from '../usage/usage.controller';
import type { UsageService } from '../usage/usage.service';
import { DeletedTaskResponse } from './dto/deleted-task.response';
import { ListTasksArgumentsDto } from './dto/list-tasks-arguments.dto';

/** The services the tools call: those of the REST routes they stand for. */
export interface ToolServices {
  tasks: TasksService;
  creation: TaskCreationService;
  search: GroundedSearchService;
  executions: ExecutionsService;
  usage: UsageService;
}

/** Where a tool's arguments would be in the REST request, for the route's validation pipe. */
export type ArgumentsLocation = 'body' | 'query';

/**
 * One MCP tool (docs/api.md, "MCP"): the REST route it stands for and how its arguments map to that
 * route's path ids and DTO. The DTO validates the arguments (and gives the `inputSchema`); the
 * route's own limits (`@LlmRateLimit()`) count each call; `run` calls the route's service method.
 */
export interface TaskTool {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** The REST route: its controller and handler, read for the limits the route declares. */
  route: [controller: Type, handler: string];
  /** Arguments that are path ids on REST (required UUIDs, 422 `[<name>]` otherwise). */
  ids: string[];
  dto?: { type: Type; in: ArgumentsLocation };
  /** The answer's class (OpenAPI metadata), for the `outputSchema`. */
  response: Type;
  /** The REST answer is a bare array: it is returned as `{"items": [...]}`. */
  list?: boolean;
  /** A second text after the answer: what to call next with it. */
  followUp?(answer: unknown): string;
  run(services: ToolServices, caller: AuthenticatedUser, args: ToolArguments): Promise<unknown>;
}

/** Validated arguments: the path ids by name, and the DTO instance. */
export interface ToolArguments {
  ids: Record<string, string>;
  dto: object;
}

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

export const TASK_TOOLS: TaskTool[] = [
  {
    name: 'list_tasks',
    title: 'List tasks',
    description:
      "The caller's tasks, newest first (GET /api/v1/tasks): a page of at most limit tasks (default 50, at most 200) from offset.",
    annotations: READ,
    route: [TasksController, 'list'],
    ids: [],
    dto: { type: ListTasksArgumentsDto, in: 'query' },
    response: TaskResponse,
    list: true,
    run: ({ tasks }, caller, { dto }) => {
      const query = dto as ListTasksArgumentsDto;
      return tasks.listOwn(caller, query.state, {
        limit: query.limit ?? PAGE_DEFAULT,
        offset: query.offset,
      });
    },
  },
  {
    name: 'get_task',
    title: 'Get a task',
    description: 'One task with its last execution (GET /api/v1/tasks/{id}).',
    annotations: READ,
    route: [TasksController, 'get'],
    ids: ['id'],
    response: TaskResponse,
    run: ({ tasks }, caller, { ids }) => tasks.getVisible(caller, ids.id),
  },
  {
    name: 'create_task',
    title: 'Create a task',
    description:
      'Creates a monitoring task (POST /api/v1/tasks): a search query checked on a schedule against a condition, with optional notification configs.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    route: [TasksController, 'create'],
    ids: [],
    dto: { type: CreateTaskDto, in: 'body' },
    response: CreatedTaskResponse,
    run: ({ creation }, caller, { dto }) => creation.create(caller, dto as CreateTaskDto),
  },
  {
    name: 'update_task',
    title: 'Update a task',
    description:
      'Changes the fields given (PUT /api/v1/tasks/{id}); notifications, when given, replace the configs.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    route: [TasksController, 'update'],
    ids: ['id'],
    dto: { type: UpdateTaskDto, in: 'body' },
    response: TaskResponse,
    run: async ({ tasks }, caller, { ids, dto }) =>
      tasks.toResponse(await tasks.update(caller, ids.id, dto)),
  },
  {
    name: 'pause_task',
    title: 'Pause a task',
    description: 'Stops scheduled checks (PUT /api/v1/tasks/{id} with state "paused").',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    route: [TasksController, 'update'],
    ids: ['id'],
    response: TaskResponse,
    run: async ({ tasks }, caller, { ids }) =>
      tasks.toResponse(await tasks.update(caller, ids.id, { state: 'paused' })),
  },
  {
    name: 'resume_task',
    title: 'Resume a task',
    description:
      'Schedules checks again (PUT /api/v1/tasks/{id} with state "active"); counts under the active task cap.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    route: [TasksController, 'update'],
    ids: ['id'],
    response: TaskResponse,
    run: async ({ tasks }, caller, { ids }) =>
      tasks.toResponse(await tasks.update(caller, ids.id, { state: 'active' })),
  },
  {
    name: 'delete_task',
    title: 'Delete a task',
    description: 'Deletes a task and its history (DELETE /api/v1/tasks/{id}).',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    route: [TasksController, 'remove'],
    ids: ['id'],
    response: DeletedTaskResponse,
    run: async ({ tasks }, caller, { ids }) => {
      await tasks.remove(caller, ids.id);
      return { id: ids.id, deleted: true } satisfies DeletedTaskResponse;
    },
  },
  {
    name: 'execute_task',
    title: 'Run a task now',
    description:
      'Queues a check now and answers the pending execution (POST /api/v1/tasks/{id}/execute); force cancels a run in flight. The check runs in the background: follow it with list_executions. Counts under the model-call limit and the monthly budget.',
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    route: [ExecutionsController, 'execute'],
    ids: ['id'],
    dto: { type: ExecuteTaskBodyDto, in: 'body' },
    response: ExecutionResponse,
    followUp: (answer) => {
      const { id, status, task_id: taskId } = answer as ExecutionResponse;
      return (
        `Execution ${id} is ${status}; the check runs in the background. Follow it with ` +
        `list_executions {"task_id": "${taskId}"} (newest first) until its status is success, ` +
        `failed or cancelled; get_task {"id": "${taskId}"} then shows it as last_execution.`
      );
    },
    run: ({ executions }, caller, { ids, dto }) =>
      executions.run(caller, ids.id, (dto as ExecuteTaskBodyDto).force ?? false),
  },
  {
    name: 'list_executions',
    title: "List a task's executions",
    description:
      'Executions of a task, newest first (GET /api/v1/tasks/{id}/executions), filtered by status.',
    annotations: READ,
    route: [ExecutionsController, 'list'],
    ids: ['task_id'],
    dto: { type: ListExecutionsQueryDto, in: 'query' },
    response: ExecutionResponse,
    list: true,
    run: ({ executions }, caller, { ids, dto }) => executions.listForTask(caller, ids.task_id, dto),
  },
  {
    name: 'suggest_task',
    title: 'Suggest a task',
    description:
      'Turns a prompt into a task configuration (POST /api/v1/tasks/suggest), without creating it. Calls the model.',
    annotations: { readOnlyHint: true, openWorldHint: true },
    route: [TasksController, 'suggest'],
    ids: [],
    dto: { type: SuggestTaskDto, in: 'body' },
    response: SuggestResponse,
    run: ({ search }, caller, { dto }) => {
      const body = dto as SuggestTaskDto;
      return search.suggest(caller.id, { prompt: body.prompt, currentTask: body.current_task });
    },
  },
  {
    name: 'preview_task',
    title: 'Preview a task',
    description:
      'Runs a search query and its condition once, without creating a task (POST /api/v1/tasks/preview). Calls the model.',
    annotations: { readOnlyHint: true, openWorldHint: true },
    route: [TasksController, 'preview'],
    ids: [],
    dto: { type: PreviewTaskDto, in: 'body' },
    response: PreviewResponse,
    run: ({ search }, caller, { dto }) => search.preview(caller.id, dto as PreviewTaskDto),
  },
  {
    name: 'get_usage',
    title: 'Usage and cost',
    description:
      "The caller's provider usage and cost in a UTC month, and the monthly budget (GET /api/v1/usage).",
    annotations: READ,
    route: [UsageController, 'get'],
    ids: [],
    dto: { type: UsageQueryDto, in: 'query' },
    response: MonthlyUsageResponse,
    run: ({ usage }, caller, { dto }) => usage.monthlyUsage(caller, (dto as UsageQueryDto).month),
  },
];
