import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { ExecuteTaskBodyDto } from '../executions/dto/execute-task.dto';
import { ListExecutionsQueryDto } from '../executions/dto/list-executions-query.dto';
import { ExecutionResponse } from '../executions/execution.mapper';
import { executeTask, listExecutions } from '../executions/executions.operations';
import { AcknowledgedAlertResponse } from '../tasks/dto/alert-policy.dto';
import { CreateTaskDto } from '../tasks/dto/create-task.dto';
import { PreviewTaskDto } from '../tasks/dto/preview-task.dto';
import { SuggestTaskDto } from '../tasks/dto/suggest-task.dto';
import { UpdateTaskDto } from '../tasks/dto/update-task.dto';
import { PreviewResponse, SuggestResponse } from '../tasks/grounded-search.service';
import { CreatedTaskResponse, TaskResponse } from '../tasks/task.mapper';
import {
  acknowledgeTask,
  createTask,
  deleteTask,
  getTask,
  listTasks,
  previewTask,
  suggestTask,
  updateTask,
} from '../tasks/tasks.operations';
import { UsageQueryDto } from '../usage/dto/usage-query.dto';
import { MonthlyUsageResponse } from '../usage/dto/usage-responses';
import { getUsage } from '../usage/usage.operations';
import { DeletedTaskResponse } from './dto/deleted-task.response';
import { ListTasksArgumentsDto } from './dto/list-tasks-arguments.dto';
import { defineTool, type TaskTool } from './tool-definition';

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** The MCP tools (docs/api.md, "MCP"), each the operation of a REST route. */
export const TASK_TOOLS: TaskTool[] = [
  defineTool({
    name: 'list_tasks',
    title: 'List tasks',
    description:
      "The caller's tasks, newest first (GET /api/v1/tasks): a page of at most limit tasks (default 50, at most 200) from offset.",
    annotations: READ,
    operation: listTasks,
    input: { dto: ListTasksArgumentsDto, in: 'query' },
    response: [TaskResponse],
  }),
  defineTool({
    name: 'get_task',
    title: 'Get a task',
    description: 'One task with its last execution (GET /api/v1/tasks/{id}).',
    annotations: READ,
    operation: getTask,
    response: TaskResponse,
  }),
  defineTool({
    name: 'create_task',
    title: 'Create a task',
    description:
      'Creates a monitoring task (POST /api/v1/tasks): a search query checked on a schedule against a condition, with optional notification configs.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    operation: createTask,
    input: { dto: CreateTaskDto, in: 'body' },
    response: CreatedTaskResponse,
  }),
  defineTool({
    name: 'update_task',
    title: 'Update a task',
    description:
      'Changes the fields given (PUT /api/v1/tasks/{id}); notifications, when given, replace the configs.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    operation: updateTask,
    input: { dto: UpdateTaskDto, in: 'body' },
    response: TaskResponse,
  }),
  defineTool({
    name: 'pause_task',
    title: 'Pause a task',
    description: 'Stops scheduled checks (PUT /api/v1/tasks/{id} with state "paused").',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    operation: updateTask,
    input: { fixed: { state: 'paused' } },
    response: TaskResponse,
  }),
  defineTool({
    name: 'resume_task',
    title: 'Resume a task',
    description:
      'Schedules checks again (PUT /api/v1/tasks/{id} with state "active"); counts under the active task cap.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    operation: updateTask,
    input: { fixed: { state: 'active' } },
    response: TaskResponse,
  }),
  defineTool({
    name: 'acknowledge_task',
    title: "Acknowledge a task's alert",
    description:
      "Acknowledges the task's standing alert, which stops its reminders (POST /api/v1/tasks/{id}/acknowledge); an error when no alert stands.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    operation: acknowledgeTask,
    response: AcknowledgedAlertResponse,
  }),
  defineTool({
    name: 'delete_task',
    title: 'Delete a task',
    description: 'Deletes a task and its history (DELETE /api/v1/tasks/{id}).',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    operation: deleteTask,
    answer: (_, { id }): DeletedTaskResponse => ({ id, deleted: true }),
    response: DeletedTaskResponse,
  }),
  defineTool({
    name: 'execute_task',
    title: 'Run a task now',
    description:
      'Queues a check now and answers the pending execution (POST /api/v1/tasks/{id}/execute); force cancels a run in flight. The check runs in the background: follow it with list_executions. Counts under the model-call limit and the monthly budget; a task whose verdict needs no model (a page_rule, or page values with on_change alone) counts under the page-check limit instead.',
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    operation: executeTask,
    input: { dto: ExecuteTaskBodyDto, in: 'body' },
    response: ExecutionResponse,
    followUp: ({ id, status, task_id: taskId }) =>
      `Execution ${id} is ${status}; the check runs in the background. Follow it with ` +
      `list_executions {"task_id": "${taskId}"} (newest first) until its status is success, ` +
      `failed or cancelled; get_task {"id": "${taskId}"} then shows it as last_execution.`,
  }),
  defineTool({
    name: 'list_executions',
    title: "List a task's executions",
    description:
      'Executions of a task, newest first (GET /api/v1/tasks/{id}/executions), filtered by status.',
    annotations: READ,
    operation: listExecutions,
    input: { dto: ListExecutionsQueryDto, in: 'query' },
    response: [ExecutionResponse],
  }),
  defineTool({
    name: 'suggest_task',
    title: 'Suggest a task',
    description:
      'Turns a prompt into a task configuration (POST /api/v1/tasks/suggest), without creating it. Calls the model.',
    annotations: { readOnlyHint: true, openWorldHint: true },
    operation: suggestTask,
    input: { dto: SuggestTaskDto, in: 'body' },
    response: SuggestResponse,
  }),
  defineTool({
    name: 'preview_task',
    title: 'Preview a task',
    description:
      'Runs a search query and its condition once, without creating a task (POST /api/v1/tasks/preview). Calls the model.',
    annotations: { readOnlyHint: true, openWorldHint: true },
    operation: previewTask,
    input: { dto: PreviewTaskDto, in: 'body' },
    response: PreviewResponse,
  }),
  defineTool({
    name: 'get_usage',
    title: 'Usage and cost',
    description:
      "The caller's provider usage and cost in a UTC month, and the monthly budget (GET /api/v1/usage).",
    annotations: READ,
    operation: getUsage,
    input: { dto: UsageQueryDto, in: 'query' },
    response: MonthlyUsageResponse,
  }),
];
