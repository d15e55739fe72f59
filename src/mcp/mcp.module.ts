import { Module } from '@nestjs/common';
import { HttpErrorsModule } from '../common/filters/http-errors.module';
import { RequestValidationPipe } from '../common/pipes/request-validation.pipe';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { ExecutionsModule } from '../executions/executions.module';
import { TasksModule } from '../tasks/tasks.module';
import { UsageModule } from '../usage/usage.module';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';
import { McpUnauthorizedFilter } from './mcp-unauthorized.filter';

/**
 * The MCP server at `/mcp`: tools over the same operations as the REST routes. The API's pipes,
 * model-call limit and error filter are used here as they are on REST, so a tool validates,
 * counts and fails as its route does.
 */
@Module({
  imports: [HttpErrorsModule, TasksModule, ExecutionsModule, UsageModule],
  controllers: [McpController],
  providers: [McpService, McpUnauthorizedFilter, RequestValidationPipe, UuidParamPipe],
})
export class McpModule {}
