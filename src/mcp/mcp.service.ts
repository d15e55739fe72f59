import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { RequestValidationException } from '../common/errors/validation-issue';
import { HttpErrorFilter } from '../common/filters/http-error.filter';
import { RequestValidationPipe, TOO_DEEP_TO_ECHO } from '../common/pipes/request-validation.pipe';
import { UuidParamPipe } from '../common/pipes/uuid-param.pipe';
import { ModelCallLimiter } from '../common/rate-limit/model-call-limiter';
import { dtoJsonSchema, type JsonObjectSchema } from '../common/validation/dto-json-schema';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../common/validation/json-depth';
import { nulCharacterIssues } from '../common/validation/nul-characters';
import { PACKAGE_INFO } from '../config/package-info';
import { TASK_TOOLS } from './task-tools';
import type { ArgumentReader, TaskTool, ToolAnswer } from './tool-definition';
import { toolInputSchema, toolOutputSchema } from './tool-schemas';

/** The transport reads no part of the URL; the request's own Host is not trusted to make one. */
const MCP_URL = 'http://localhost/mcp';

interface CompiledTool {
  tool: TaskTool;
  call: (caller: AuthenticatedUser, read: ArgumentReader) => Promise<ToolAnswer>;
  input: z.ZodObject;
  output: z.ZodObject;
}

/**
 * `/mcp` (docs/api.md, "MCP"): one stateless MCP server per HTTP request, as the SDK's stateless
 * Streamable HTTP pattern has it. Each tool call acts as its REST route would for the same
 * caller: the global guards already authenticated the request and counted it in the caller's
 * limits; here the model-call limit counts a tool whose operation calls the model (execute,
 * suggest and preview), the route's DTO validates the arguments through the API's validation
 * pipe, the route's operation runs, and an error becomes the tool result the REST answer's
 * `detail`.
 */
@Injectable()
export class McpService implements OnModuleInit {
  private tools: CompiledTool[] = [];
  /**
   * The SDK's server builds an Ajv instance of its own unless given one (it serves elicitation,
   * which these tools do not use): one for every server, rather than one per request.
   */
  private readonly schemaValidator = new AjvJsonSchemaValidator();

  constructor(
    private readonly modules: ModuleRef,
    private readonly modelCalls: ModelCallLimiter,
    private readonly validation: RequestValidationPipe,
    private readonly ids: UuidParamPipe,
    private readonly errors: HttpErrorFilter,
  ) {}

  /**
   * The schemas are built once: they follow the DTOs, which do not change while running; each
   * tool finds its operation's service once, among the modules MCP imports.
   */
  onModuleInit(): void {
    this.tools = TASK_TOOLS.map((tool) => ({
      tool,
      call: tool.bind((service) => this.modules.get(service, { strict: false })),
      input: toolInputSchema(inputJsonSchema(tool)),
      output: toolOutputSchema(tool.response, tool.list),
    }));
  }

  async handle(caller: AuthenticatedUser, request: Request, response: Response): Promise<void> {
    const server = new McpServer(PACKAGE_INFO, {
      jsonSchemaValidator: this.schemaValidator,
      instructions:
        'Monitoring tasks: a grounded web search checked on a schedule against a condition. Every tool acts as the REST API at /api/v1 would for the same credentials.',
    });
    for (const compiled of this.tools) {
      const { tool, input, output } = compiled;
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: input,
          outputSchema: output,
          annotations: tool.annotations,
        },
        (args: Record<string, unknown>) => this.callTool(compiled, caller, args, request),
      );
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const answer = await transport.handleRequest(webRequest(request), {
        parsedBody: request.body,
      });
      response.status(answer.status);
      answer.headers.forEach((value, name) => response.setHeader(name, value));
      response.end(await bodyBytes(answer));
    } finally {
      await server.close();
    }
  }

  private async callTool(
    { tool, call }: CompiledTool,
    caller: AuthenticatedUser,
    args: Record<string, unknown>,
    request: Request,
  ): Promise<CallToolResult> {
    try {
      if (tool.callsModel) await this.modelCalls.hit(caller.id);
      assertArgumentsFit(tool, args);
      const { answer, followUp } = await call(caller, this.argumentReader(tool, args));
      const structured = tool.list ? { items: answer } : (answer as Record<string, unknown>);
      const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(answer) }];
      if (followUp) content.push({ type: 'text', text: followUp });
      return { content, structuredContent: structured };
    } catch (error) {
      // The REST answer this error would be, `detail` and all (5xx logged as on REST).
      const { body } = this.errors.describe(error, request);
      const detail = body.detail;
      return {
        content: [
          { type: 'text', text: typeof detail === 'string' ? detail : JSON.stringify(detail) },
        ],
        isError: true,
      };
    }
  }

  /**
   * The arguments as the REST route would take them: ids as path ids, the rest as its DTO. A
   * 422's issues name the argument (`loc` `["id"]`, `["current_task", "name"]`), not the place
   * REST would have it.
   */
  private argumentReader(tool: TaskTool, args: Record<string, unknown>): ArgumentReader {
    return {
      ids: <Id extends string>(names: readonly Id[]) =>
        namingArguments(() => {
          const ids = {} as Record<Id, string>;
          for (const name of names)
            ids[name] = this.ids.transform(args[name] as string, { type: 'param', data: name });
          return ids;
        }),
      dto: (dto, location) => {
        const fields = { ...args };
        for (const name of tool.ids) delete fields[name];
        return namingArguments(() => this.validation.validatedInstance(fields, dto, location));
      },
    };
  }
}

/** Runs `read`, its 422 naming the arguments where the pipes say where REST would have them. */
async function namingArguments<T>(read: () => T | Promise<T>): Promise<Awaited<T>> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof RequestValidationException)) throw error;
    // The pipes say where REST would have the value first: `["path", "id"]`, `["body", ...]`.
    throw new RequestValidationException(
      error.issues.map((issue) => ({ ...issue, loc: issue.loc.slice(1) })),
    );
  }
}

/**
 * 422 for arguments the pipes should not walk: a missing id (the REST route would not match at
 * all) and arguments whose arrays and objects nest more than MAX_JSON_DEPTH levels, the
 * arguments object included, as the REST body they stand for; and for a U+0000 in any string
 * of the arguments, ids and arguments the tool does not know included (docs/api.md, "MCP").
 */
function assertArgumentsFit(tool: TaskTool, args: Record<string, unknown>): void {
  const tooDeep = Object.keys(args).filter((name) =>
    nestsDeeperThan(args[name], MAX_JSON_DEPTH - 1),
  );
  if (tooDeep.length > 0)
    throw new RequestValidationException(
      tooDeep.map((name) => ({
        type: 'value_error',
        loc: [name],
        msg: `Arrays and objects may nest at most ${MAX_JSON_DEPTH} levels`,
        input: TOO_DEEP_TO_ECHO,
      })),
    );
  const nul = nulCharacterIssues(args, []);
  if (nul.length > 0) throw new RequestValidationException(nul);
  const missing = tool.ids.filter((name) => args[name] === undefined);
  if (missing.length > 0)
    throw new RequestValidationException(
      missing.map((name) => ({ type: 'missing', loc: [name], msg: 'Field required', input: args })),
    );
}

/**
 * The request as the SDK's web-standard transport reads it: its method and headers (its body is
 * already parsed, `mcpRequestBody`). The SDK's Node transport makes the same from the Node
 * request, and a Node response from the answer, through web streams that cost more than a
 * tenth of a `list_tasks` call in a profile; a JSON answer needs neither.
 */
function webRequest(request: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return new globalThis.Request(MCP_URL, { method: request.method, headers });
}

/**
 * The answer's body as bytes, read from its stream: for the 300 kB answer of a 50-task
 * `list_tasks`, `arrayBuffer()` and `text()` take about 300 µs where the stream's chunks take 130,
 * which is as much as the answer's serialisation.
 */
async function bodyBytes(answer: globalThis.Response): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  if (answer.body)
    for await (const chunk of answer.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** Path ids (UUID strings, required) and the fields of the route's DTO. */
function inputJsonSchema(tool: TaskTool): JsonObjectSchema {
  const schema: JsonObjectSchema = tool.dto
    ? dtoJsonSchema(tool.dto.type)
    : { type: 'object', properties: {}, required: [] };
  for (const name of [...tool.ids].reverse()) {
    schema.properties = { [name]: { type: 'string', format: 'uuid' }, ...schema.properties };
    schema.required = [name, ...schema.required];
  }
  return schema;
}
