import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { IpRateLimit } from '../common/rate-limit/rate-limit.decorator';
import type { TaskResponse } from '../tasks/task.mapper';
import { ListPublicTasksQueryDto } from './dto/list-public-tasks-query.dto';
import { PublicTasksService, type PublicTaskPage } from './public-tasks.service';

/** Per-IP limits of the interface document's "Limits" table; each endpoint counts separately. */
@ApiTags('public')
@Controller('api/v1/public/tasks')
export class PublicTasksController {
  constructor(private readonly publicTasks: PublicTasksService) {}

  @Get()
  @Public()
  @IpRateLimit('public-task-list', 10)
  list(@Query() query: ListPublicTasksQueryDto): Promise<PublicTaskPage> {
    return this.publicTasks.listPublicTasks(query);
  }

  @Get('id/:id')
  @Public()
  @IpRateLimit('public-task', 20)
  get(@Param('id', UuidParamPipe) id: string): Promise<TaskResponse> {
    return this.publicTasks.viewPublicTask(id);
  }
}
