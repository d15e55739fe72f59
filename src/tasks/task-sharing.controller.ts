import { Body, Controller, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/decorators/auth.decorators';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { ForkTaskDto } from './dto/fork-task.dto';
import { SetVisibilityDto } from './dto/set-visibility.dto';
import type { TaskResponse } from './task.mapper';
import { TaskSharingService } from './task-sharing.service';

@ApiTags('tasks')
@ApiBearerAuth()
@Controller('api/v1/tasks')
export class TaskSharingController {
  constructor(private readonly sharing: TaskSharingService) {}

  @Patch(':id/visibility')
  setVisibility(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
    @Body() body: SetVisibilityDto,
  ): Promise<{ is_public: boolean }> {
    return this.sharing.setVisibility(caller, id, body.is_public);
  }

  @Post(':id/fork')
  @HttpCode(200)
  fork(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ForkTaskDto,
  ): Promise<TaskResponse> {
    return this.sharing.fork(caller, id, body.name);
  }
}
