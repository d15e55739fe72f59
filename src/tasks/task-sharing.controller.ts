import { Body, Controller, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ForkTaskDto } from './dto/fork-task.dto';
import { SetVisibilityDto } from './dto/set-visibility.dto';
import { TaskResponse } from './task.mapper';
import { TaskSharingService, VisibilityResponse } from './task-sharing.service';

@ApiTags('tasks')
@ApiCredentials()
@Controller('api/v1/tasks')
export class TaskSharingController {
  constructor(private readonly sharing: TaskSharingService) {}

  @Patch(':id/visibility')
  @ApiRoute({
    summary: 'Make a task public or private',
    response: VisibilityResponse,
    errors: [400, 404, 413, 422],
  })
  setVisibility(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
    @Body() body: SetVisibilityDto,
  ): Promise<VisibilityResponse> {
    return this.sharing.setVisibility(caller, id, body.is_public);
  }

  @Post(':id/fork')
  @HttpCode(200)
  @Idempotent()
  @ApiRoute({
    summary: 'Fork a public task (or one of your own)',
    response: TaskResponse,
    errors: [404, 409, 413, 422],
  })
  fork(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ForkTaskDto,
  ): Promise<TaskResponse> {
    return this.sharing.fork(caller, id, body.name);
  }
}
