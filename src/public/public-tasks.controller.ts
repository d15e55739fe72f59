import { Controller, Get, Ip, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { IpRateLimit } from '../common/rate-limit/rate-limit.decorator';
import { TaskResponse } from '../tasks/task.mapper';
import { ListPublicTasksQueryDto } from './dto/list-public-tasks-query.dto';
import { PublicTaskPage, PublicTasksService } from './public-tasks.service';

/** Per-IP limits (docs/api.md, "Rate limits"); each endpoint counts separately. */
@ApiTags('public')
@Controller('api/v1/public/tasks')
export class PublicTasksController {
  constructor(private readonly publicTasks: PublicTasksService) {}

  @Get()
  @Public()
  @IpRateLimit('public-task-list', 10)
  @ApiRoute({ summary: 'List public tasks', response: PublicTaskPage, errors: [422] })
  list(@Query() query: ListPublicTasksQueryDto): Promise<PublicTaskPage> {
    return this.publicTasks.listPublicTasks(query);
  }

  @Get('id/:id')
  @Public()
  @IpRateLimit('public-task', 20)
  @ApiRoute({
    summary: 'Get a public task (counts a view)',
    response: TaskResponse,
    errors: [404, 422],
  })
  get(@Param('id', UuidParamPipe) id: string, @Ip() clientAddress: string): Promise<TaskResponse> {
    return this.publicTasks.viewPublicTask(id, clientAddress);
  }
}
