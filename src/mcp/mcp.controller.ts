import { Controller, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/decorators/auth.decorators';
import { McpService } from './mcp.service';
import { McpUnauthorizedFilter } from './mcp-unauthorized.filter';

/**
 * The MCP endpoint (docs/api.md, "MCP"): Streamable HTTP, stateless, JSON answers. Same
 * credentials and limits as the REST API: the global guards run first. `GET` and `DELETE` (the
 * transport's stream and session ends, which a stateless server has none of) answer 405. It is
 * not part of the OpenAPI document: its messages are JSON-RPC, described by the MCP spec.
 */
@ApiExcludeController()
@Controller('mcp')
@UseFilters(McpUnauthorizedFilter)
export class McpController {
  constructor(private readonly mcp: McpService) {}

  @Post()
  async handle(
    @CurrentUser() caller: AuthenticatedUser,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    await this.mcp.handle(caller, request, response);
  }
}
