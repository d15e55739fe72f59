import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser, OptionalAuth } from '../common/decorators/auth.decorators';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { GroundedSearchService, type PreviewResponse } from '../search/grounded-search.service';
import type { SuggestResult } from '../search/search-provider';
import { CreateTaskDto } from './dto/create-task.dto';
import { ListTasksQueryDto } from './dto/list-tasks-query.dto';
import { PreviewTaskDto } from './dto/preview-task.dto';
import { SuggestTaskDto } from './dto/suggest-task.dto';
import { UpdateTaskDto } from './dto/update-task.dto';
import type { TaskResponse } from './task.mapper';
import { TaskCreationService } from './task-creation.service';
import { TasksService } from './tasks.service';

@ApiTags('tasks')
@ApiBearerAuth()
@Controller('api/v1/tasks')
export class TasksController {
  constructor(
    private readonly tasks: TasksService,
    private readonly creation: TaskCreationService,
    private readonly search: GroundedSearchService,
  ) {}

  @Post()
  @HttpCode(200)
  create(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: CreateTaskDto,
  ): Promise<TaskResponse> {
    return this.creation.create(caller, body);
  }

  @Post('suggest')
  @HttpCode(200)
  suggest(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: SuggestTaskDto,
  ): Promise<SuggestResult> {
    return this.search.suggest(caller.id, { prompt: body.prompt, currentTask: body.current_task });
  }

  @Post('preview')
  @HttpCode(200)
  preview(
    @CurrentUser() caller: AuthenticatedUser,
    @Body() body: PreviewTaskDto,
  ): Promise<PreviewResponse> {
    return this.search.preview(
      caller.id,
      body.search_query,
      body.condition_description ?? body.search_query,
    );
  }

  @Get()
  list(
    @CurrentUser() caller: AuthenticatedUser,
    @Query() query: ListTasksQueryDto,
  ): Promise<TaskResponse[]> {
    return this.tasks.listOwn(caller, query.state);
  }

  @Get(':id')
  @OptionalAuth()
  get(
    @CurrentUser() caller: AuthenticatedUser | undefined,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<TaskResponse> {
    return this.tasks.getVisible(caller, id);
  }

  @Put(':id')
  async update(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
    @Body() body: UpdateTaskDto,
  ): Promise<TaskResponse> {
    return this.tasks.toResponse(await this.tasks.update(caller, id, body));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
  ): Promise<void> {
    await this.tasks.remove(caller, id);
  }
}
