import type { AuthenticatedUser } from '../auth/authenticated-user';
import { defineOperation } from '../common/operations/operation';
import type { CreateTaskDto } from './dto/create-task.dto';
import type { ListTasksQueryDto } from './dto/list-tasks-query.dto';
import type { PreviewTaskDto } from './dto/preview-task.dto';
import type { SuggestTaskDto } from './dto/suggest-task.dto';
import type { UpdateTaskDto } from './dto/update-task.dto';
import { GroundedSearchService } from './grounded-search.service';
import { TaskAttentionService } from './task-attention.service';
import { TaskCreationService } from './task-creation.service';
import { TaskChanges } from './task-changes.service';
import { TaskQueries } from './task-queries.service';

/*
 * The task operations: each the body of a REST route and of the MCP tools that act as it
 * (docs/architecture.md, "One adapter per operation").
 */

export const listTasks = defineOperation({
  service: TaskQueries,
  ids: [],
  callsModel: false,
  run: (tasks, caller: AuthenticatedUser, _ids, query: ListTasksQueryDto) =>
    tasks.listOwn(caller, query.state, { limit: query.limit, offset: query.offset }),
});

export const getTask = defineOperation({
  service: TaskQueries,
  ids: ['id'],
  callsModel: false,
  run: (tasks, caller: AuthenticatedUser | undefined, { id }) => tasks.getVisible(caller, id),
});

export const getTaskPages = defineOperation({
  service: TaskQueries,
  ids: ['id'],
  callsModel: false,
  run: (tasks, caller: AuthenticatedUser, { id }) => tasks.pagesOf(caller, id),
});

export const getPageScreenshot = defineOperation({
  service: TaskQueries,
  ids: ['id', 'index'],
  callsModel: false,
  run: (tasks, caller: AuthenticatedUser, { id, index }) => tasks.screenshotOf(caller, id, index),
});

export const createTask = defineOperation({
  service: TaskCreationService,
  ids: [],
  callsModel: false,
  run: (creation, caller: AuthenticatedUser, _ids, body: CreateTaskDto) =>
    creation.create(caller, body),
});

export const updateTask = defineOperation({
  service: TaskChanges,
  ids: ['id'],
  callsModel: false,
  run: (tasks, caller: AuthenticatedUser, { id }, body: UpdateTaskDto) =>
    tasks.update(caller, id, body),
});

export const deleteTask = defineOperation({
  service: TaskChanges,
  ids: ['id'],
  callsModel: false,
  run: (tasks, caller: AuthenticatedUser, { id }) => tasks.remove(caller, id),
});

export const suggestTask = defineOperation({
  service: GroundedSearchService,
  ids: [],
  callsModel: true,
  run: (search, caller: AuthenticatedUser, _ids, body: SuggestTaskDto) =>
    search.suggest(caller.id, { prompt: body.prompt, currentTask: body.current_task }),
});

export const previewTask = defineOperation({
  service: GroundedSearchService,
  ids: [],
  callsModel: true,
  run: (search, caller: AuthenticatedUser, _ids, body: PreviewTaskDto) =>
    search.preview(caller.id, body),
});

export const acknowledgeTask = defineOperation({
  service: TaskAttentionService,
  ids: ['id'],
  callsModel: false,
  run: (attention, caller: AuthenticatedUser, { id }) => attention.acknowledge(caller, id),
});

export const resumeNotification = defineOperation({
  service: TaskAttentionService,
  ids: ['id', 'type'],
  callsModel: false,
  run: (attention, caller: AuthenticatedUser, { id, type }) => attention.resume(caller, id, type),
});
