import { applyDecorators, type Type } from '@nestjs/common';
import { LlmRateLimit } from '../rate-limit/rate-limit.decorator';

/**
 * One thing the API does, written once for every door to it: a REST route's handler and an MCP
 * tool both call `run`, which turns the door's validated input into its service's call and that
 * call's result into the REST answer (docs/architecture.md, "One adapter per operation").
 */
export interface Operation<Service, Caller, Id extends string, Input, Result> {
  /** The service `run` calls: a controller passes its own, the MCP server finds it by its class. */
  readonly service: Type<Service>;
  /** The REST route's path ids, by the names an MCP tool gives its arguments. */
  readonly ids: readonly Id[];
  /** The operation calls the model: each call counts in the user's `RATE_LIMIT_LLM_PER_HOUR`. */
  readonly callsModel: boolean;
  readonly run: (
    service: Service,
    caller: Caller,
    ids: Readonly<Record<Id, string>>,
    input: Input,
  ) => Promise<Result>;
}

/**
 * An operation, its types read from `run`'s parameters: an operation without an input (no
 * request body or query) declares none and is run without one.
 */
export function defineOperation<
  Service,
  Caller,
  Id extends string = never,
  Input = void,
  Result = void,
>(
  operation: Operation<Service, Caller, Id, Input, Result>,
): Operation<Service, Caller, Id, Input, Result> {
  return operation;
}

/**
 * On the REST handler that runs `operation`: declares on its route what the operation declares,
 * the model-call limit (`@LlmRateLimit()`) of one that calls the model.
 */
export function Runs(operation: { readonly callsModel: boolean }): MethodDecorator {
  return applyDecorators(...(operation.callsModel ? [LlmRateLimit()] : []));
}
