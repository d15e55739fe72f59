import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  StreamableFile,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser, OptionalAuth } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { Runs } from '../common/operations/operation';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { PageSnapshotResponse } from '../pages/snapshots/page-snapshot.response';
import { GroundedSearchService, PreviewResponse, SuggestResponse } from './grounded-search.service';
import { CreateTaskDto } from './dto/create-task.dto';
import { ListTasksQueryDto } from './dto/list-tasks-query.dto';
import { PreviewTaskDto } from './dto/preview-task.dto';
import { SuggestTaskDto } from './dto/suggest-task.dto';
import { UpdateTaskDto } from './dto/update-task.dto';
import { CreatedTaskResponse, TaskResponse } from './task.mapper';
import { TaskCreationService } from './task-creation.service';
import { AcknowledgedAlertResponse } from './dto/alert-policy.dto';
import { TaskAttentionService } from './task-attention.service';
import {
  acknowledgeTask,
  createTask,
  deleteTask,
  getTask,
  getPageScreenshot,
  getTaskPages,
  listTasks,
  previewTask,
  resumeNotification,
  suggestTask,
  updateTask,
} from './tasks.operations';
import { TaskChanges } from './task-changes.service';
import { TaskQueries } from './task-queries.service';

@ApiTags('tasks')
@ApiCredentials()
@Controller('api/v1/tasks')
export class TasksController {
  constructor(
    private readonly queries: TaskQueries,
    private readonly changes: TaskChanges,
    private readonly creation: TaskCreationService,
    private readonly search: GroundedSearchService,
    private readonly attention: TaskAttentionService,
  ) {}

  @Post()
  @HttpCode(200)
  @Runs(createTask)
  @Idempotent()
  @ApiRoute({
    summary: 'Create a task',
    response: CreatedTaskResponse,
    errors: [400, 409, 413, 422],
  })
  create(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: CreateTaskDto,
  ): Promise<CreatedTaskResponse> {
    return createTask.run(this.creation, caller, {}, body);
  }

  @Post('suggest')
  @HttpCode(200)
  @Runs(suggestTask)
  @ApiRoute({
    summary: 'Suggest a task configuration from a prompt',
    response: SuggestResponse,
    errors: [413, 422, 429, 502],
  })
  suggest(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: SuggestTaskDto,
  ): Promise<SuggestResponse> {
    return suggestTask.run(this.search, caller, {}, body);
  }

  @Post('preview')
  @HttpCode(200)
  @Runs(previewTask)
  @ApiRoute({
    summary: 'Run a query and its condition once, without creating a task',
    response: PreviewResponse,
    errors: [413, 422, 429, 502],
  })
  preview(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: PreviewTaskDto,
  ): Promise<PreviewResponse> {
    return previewTask.run(this.search, caller, {}, body);
  }

  @Get()
  @Runs(listTasks)
  @ApiRoute({
    summary: "List the caller's tasks, newest first",
    description: 'A bare array: every task without `limit`, a page with `limit` and `offset`.',
    response: [TaskResponse],
    errors: [422],
  })
  list(
    @CurrentUser() caller: AuthenticatedUser,
    @Query() query: ListTasksQueryDto,
  ): Promise<TaskResponse[]> {
    return listTasks.run(this.queries, caller, {}, query);
  }

  @Get(':id')
  @OptionalAuth()
  @Runs(getTask)
  @ApiRoute({
    summary: 'Get a task (anyone, for a public task)',
    description: 'Non-owners of a public task get it without owner data; a private task is 404.',
    response: TaskResponse,
    errors: [404, 422],
  })
  get(
    @CurrentUser() caller: AuthenticatedUser | undefined,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<TaskResponse> {
    return getTask.run(this.queries, caller, { id });
  }

  @Get(':id/pages')
  @Runs(getTaskPages)
  @ApiRoute({
    summary: "The last good fetch of each of a task's pages (owner only)",
    description:
      "In the task's page order; a page never fetched has `status` null and null fields. An empty list for a task without pages.",
    response: [PageSnapshotResponse],
    errors: [404, 422],
  })
  pages(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<PageSnapshotResponse[]> {
    return getTaskPages.run(this.queries, caller, { id });
  }

  @Get(':id/pages/:index/screenshot')
  @Runs(getPageScreenshot)
  @ApiRoute({
    summary: "The last screenshot of a task's browser page (owner only)",
    description:
      "`index` counts from 0 in the task's page order. The viewport of the page's last good browser read; 404 `Screenshot not found` when it has none.",
    response: {
      description: 'The PNG',
      content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
    },
    errors: [404, 422],
  })
  async screenshot(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
    @Param('index') index: string,
  ): Promise<StreamableFile> {
    const png = await getPageScreenshot.run(this.queries, caller, { id, index });
    return new StreamableFile(png, { type: 'image/png' });
  }

  @Put(':id')
  @Runs(updateTask)
  @ApiRoute({
    summary: 'Update a task',
    response: TaskResponse,
    errors: [400, 404, 409, 413, 422, 500],
  })
  update(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
    @Body() body: UpdateTaskDto,
  ): Promise<TaskResponse> {
    return updateTask.run(this.changes, caller, { id }, body);
  }

  @Post(':id/acknowledge')
  @HttpCode(200)
  @Runs(acknowledgeTask)
  @ApiRoute({
    summary: "Acknowledge the task's standing alert, which stops its reminders",
    response: AcknowledgedAlertResponse,
    errors: [404, 409, 422],
  })
  acknowledge(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<AcknowledgedAlertResponse> {
    return acknowledgeTask.run(this.attention, caller, { id });
  }

  @Post(':id/notifications/:type/resume')
  @HttpCode(200)
  @Runs(resumeNotification)
  @ApiRoute({
    summary: 'Resume a notification config that paused itself',
    response: TaskResponse,
    errors: [404, 422],
  })
  resume(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
    @Param('type') type: string,
  ): Promise<TaskResponse> {
    return resumeNotification.run(this.attention, caller, { id, type });
  }

  @Delete(':id')
  @HttpCode(204)
  @Runs(deleteTask)
  @ApiRoute({ summary: 'Delete a task', status: 204, errors: [404, 422] })
  remove(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<void> {
    return deleteTask.run(this.changes, caller, { id });
  }
}
