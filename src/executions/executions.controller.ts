import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser, OptionalAuth } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { Runs } from '../common/operations/operation';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ExecuteTaskBodyDto, ExecuteTaskQueryDto } from './dto/execute-task.dto';
import { ListExecutionsQueryDto } from './dto/list-executions-query.dto';
import { ExecutionResponse } from './execution.mapper';
import { executeTask, listExecutions } from './executions.operations';
import { ExecutionsService } from './executions.service';

@ApiTags('executions')
@ApiCredentials()
@Controller('api/v1/tasks')
export class ExecutionsController {
  constructor(private readonly executions: ExecutionsService) {}

  @Post(':id/execute')
  @HttpCode(200)
  @Runs(executeTask)
  @Idempotent()
  @ApiRoute({
    summary: 'Run a task now',
    description: 'Answers the new `pending` execution; the run itself is asynchronous.',
    response: ExecutionResponse,
    errors: [404, 409, 413, 422],
  })
  execute(
    @CurrentUser() caller: AuthenticatedUser,
    @Param('id', UuidParamPipe) id: string,
    @Query() query: ExecuteTaskQueryDto,
    @Body() body: ExecuteTaskBodyDto,
  ): Promise<ExecutionResponse> {
    return executeTask.run(this.executions, caller, { id }, { force: query.force ?? body.force });
  }

  @Get(':id/executions')
  @OptionalAuth()
  @Runs(listExecutions)
  @ApiRoute({
    summary: "List a task's executions, newest first",
    response: [ExecutionResponse],
    errors: [404, 422],
  })
  list(
    @CurrentUser() caller: AuthenticatedUser | undefined,
    @Param('id', UuidParamPipe) id: string,
    @Query() query: ListExecutionsQueryDto,
  ): Promise<ExecutionResponse[]> {
    return listExecutions.run(this.executions, caller, { task_id: id }, query);
  }
}
