/**
 * The floor of the design card for the API benchmark: NestJS on Express (Nest's defaults: its
 * JSON body parser, its router, its exception filter) doing the work of `bare-work.ts` per
 * request, and `/mcp` as the MCP SDK documents a stateless server (`McpServer` and its Node
 * Streamable HTTP transport, JSON answers) with `list_tasks` answering as docs/api.md, "MCP",
 * says (the list as structured content and as JSON text). None of the service's own guards, pipes,
 * interceptors, middlewares or mapping. Run as its own process: `node nest-floor-server.js <port>`
 * with DATABASE_URL set.
 */
import 'reflect-metadata';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  Body,
  ConflictException,
  Controller,
  Get,
  Headers,
  HttpCode,
  Module,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request, Response } from 'express';
import { callerOf, createTask, findTask, listTasks, type Row } from './bare-work';

async function caller(authorization: string | undefined): Promise<string> {
  const userId = await callerOf(authorization);
  if (userId === null) throw new UnauthorizedException('Invalid API key');
  return userId;
}

@Controller('api/v1/tasks')
class TasksController {
  @Get()
  async list(@Headers('authorization') authorization?: string): Promise<Row[]> {
    return listTasks(await caller(authorization));
  }

  @Get(':id')
  async one(
    @Param('id') id: string,
    @Headers('authorization') authorization?: string,
  ): Promise<Row> {
    const task = await findTask(id, await caller(authorization));
    if (task === null) throw new NotFoundException('Task not found');
    return task;
  }

  @Post()
  @HttpCode(200)
  async create(
    @Body() body: Row,
    @Headers('authorization') authorization?: string,
    @Headers('idempotency-key') key?: string,
  ): Promise<Row> {
    const task = await createTask(await caller(authorization), body, JSON.stringify(body), key);
    if (task === null) throw new ConflictException('Key in use');
    return task;
  }
}

@Controller('mcp')
class McpController {
  @Post()
  async call(@Req() request: Request, @Res() response: Response, @Body() body: unknown) {
    const userId = await caller(request.headers.authorization);
    const server = new McpServer({ name: 'nest-floor', version: '1' });
    server.registerTool('list_tasks', { inputSchema: {} }, async () => {
      const items = await listTasks(userId);
      return {
        content: [{ type: 'text', text: JSON.stringify(items) }],
        structuredContent: { items },
      };
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }
}

@Module({ controllers: [TasksController, McpController] })
class FloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(FloorModule, { logger: false });
  await app.listen(Number(process.argv[2]), '127.0.0.1');
}

void main();
