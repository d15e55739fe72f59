import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser, OptionalAuth } from '../common/decorators/auth.decorators';
import { ApiCredentials, ApiRoute } from '../common/openapi/api-route.decorator';
import { LlmRateLimit } from '../common/rate-limit/rate-limit.decorator';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ExecuteTaskBodyDto, ExecuteTaskQueryDto } from './dto/execute-task.dto';
import { ListExecutionsQueryDto } from './dto/list-executions-query.dto';
import { ExecutionResponse } from './execution.mapper';
import { ExecutionsService } from './executions.service';

@ApiTags('executions')
@ApiCredentials()
@Controller('api/v1/tasks')
export class ExecutionsController {
  constructor(private readonly executions: ExecutionsService) {}

  @Post(':id/execute')
  @HttpCode(200)
  @LlmRateLimit()
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
    return this.executions.run(caller, id, query.force ?? body.force ?? false);
  }

  @Get(':id/executions')
  @OptionalAuth()
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
    return this.executions.listForTask(caller, id, query);
  }
}
