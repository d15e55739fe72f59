import type { Type } from '@nestjs/common';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import type { Operation } from '../common/operations/operation';

/** Where a tool's arguments would be in the REST request, for the route's validation pipe. */
export type ArgumentsLocation = 'body' | 'query';

/**
 * What a tool gives its operation: its arguments (the path ids aside) read into a DTO as the
 * REST route reads its body or query, or a fixed input (`pause_task`: the update
 * `{"state": "paused"}`).
 */
export type ToolInput<Input> =
  { dto: Type<Input & object>; in: ArgumentsLocation } | { fixed: Input };

/** The answer's class, `[Class]` for an answer that is a list (as `@ApiRoute()` takes it). */
export type ResponseClass<Answer> = Answer extends readonly (infer Item)[]
  ? [Type<Item>]
  : Type<Answer>;

/**
 * A tool as written: the operation of the REST route it acts as, and what MCP adds to it. The
 * operation's types flow into the rest: the DTO must make the operation's input, the response
 * class describe the answer, and an operation that takes an input must be given one.
 */
export type ToolDefinition<Service, Id extends string, Input, Result, Answer> = {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  operation: Operation<Service, AuthenticatedUser, Id, Input, Result>;
  input?: ToolInput<NoInfer<Input>>;
  /** The tool's answer where the REST route answers none (204); the operation's result otherwise. */
  answer?: (result: NoInfer<Result>, ids: Readonly<Record<Id, string>>) => Answer;
  /** The answer's class (OpenAPI metadata), for the `outputSchema`. */
  response: NoInfer<ResponseClass<Answer>>;
  /** A second text after the answer: what to call next with the operation's result. */
  followUp?: (result: NoInfer<Result>) => string;
} & ([Input] extends [void] ? { input?: never } : { input: ToolInput<NoInfer<Input>> });

/** A call's arguments, read as the REST route reads its request (the MCP service reads them). */
export interface ArgumentReader {
  /** The path ids, each a UUID as the route's `UuidParamPipe` takes it. */
  ids<Id extends string>(names: readonly Id[]): Promise<Readonly<Record<Id, string>>>;
  /** The other arguments, validated into `dto` by the API's validation pipe. */
  dto<T extends object>(dto: Type<T>, location: ArgumentsLocation): Promise<T>;
}

export interface ToolAnswer {
  answer: unknown;
  followUp?: string;
}

/** A tool as the MCP service serves it, its types checked by `defineTool`. */
export interface TaskTool {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** Arguments that are path ids on REST (required UUIDs, 422 `[<name>]` otherwise). */
  ids: readonly string[];
  /** The DTO that reads the other arguments (and gives the `inputSchema`), if the tool has one. */
  dto?: { type: Type<object>; in: ArgumentsLocation };
  /** Each call counts in the model-call limit, as a request of the REST route does. */
  callsModel: boolean;
  /** The answer's class, of each item when the answer is a list. */
  response: Type<unknown>;
  /** The REST answer is a bare array: it is returned as `{"items": [...]}`. */
  list: boolean;
  /** The tool's call, with its operation's service found once by `resolve`. */
  bind(
    resolve: <T>(service: Type<T>) => T,
  ): (caller: AuthenticatedUser, read: ArgumentReader) => Promise<ToolAnswer>;
}

/** A tool as the MCP service serves it, from its definition, whose types are checked here. */
export function defineTool<Service, Id extends string, Input, Result, Answer = Result>(
  definition: ToolDefinition<Service, Id, Input, Result, Answer>,
): TaskTool {
  const { operation, input, answer, response, followUp } = definition;
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    annotations: definition.annotations,
    ids: operation.ids,
    dto: input && 'dto' in input ? { type: input.dto, in: input.in } : undefined,
    callsModel: operation.callsModel,
    response: Array.isArray(response) ? response[0] : response,
    list: Array.isArray(response),
    bind: (resolve) => {
      const service = resolve(operation.service);
      return async (caller, read) => {
        const ids = await read.ids(operation.ids);
        const given =
          input === undefined
            ? // Only an operation without input is given none (`ToolDefinition`).
              (undefined as Input)
            : 'fixed' in input
              ? input.fixed
              : await read.dto(input.dto, input.in);
        const result = await operation.run(service, caller, ids, given);
        return {
          answer: answer ? answer(result, ids) : result,
          followUp: followUp?.(result),
        };
      };
    },
  };
}
