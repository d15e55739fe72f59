import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOperation,
  ApiResponse,
  type ApiResponseNoStatusOptions,
} from '@nestjs/swagger';
import { ApiErrors, type ErrorStatus } from './api-errors.decorator';

/** A response class, `[Class]` for a bare JSON array, or a full response description. */
type SuccessBody = Type<unknown> | [Type<unknown>] | ApiResponseNoStatusOptions;

export interface RouteDocumentation {
  summary: string;
  description?: string;
  /** Omitted for a 204. */
  response?: SuccessBody;
  status?: 200 | 204;
  /**
   * Errors of this route beyond those its auth level and rate limits declare. A route that takes
   * a JSON body declares 413; 415 (another charset, a compressed body) comes with it.
   */
  errors?: ErrorStatus[];
}

/** One decorator per route for its OpenAPI operation: summary, success answer and errors. */
export function ApiRoute(route: RouteDocumentation): MethodDecorator {
  const status = route.status ?? 200;
  return applyDecorators(
    ApiOperation({ summary: route.summary, description: route.description }),
    ApiResponse({
      status,
      description: status === 204 ? 'No content' : 'Success',
      ...success(route.response),
    }),
    ApiErrors(...withBodyErrors(route.errors ?? [])),
  );
}

/** The errors of the JSON body parser (`src/common/http/json-body.ts`) go together. */
function withBodyErrors(errors: ErrorStatus[]): ErrorStatus[] {
  return errors.includes(413) && !errors.includes(415) ? [...errors, 415] : errors;
}

function success(body: SuccessBody | undefined): ApiResponseNoStatusOptions {
  if (body === undefined) return {};
  if (Array.isArray(body)) return { type: body[0], isArray: true };
  if (typeof body === 'function') return { type: body };
  return body;
}

/**
 * Class decorator of controllers whose routes take credentials (the guard's default): the bearer
 * scheme and the errors any credential can bring. 503 is a JWT whose issuer's keys cannot be
 * fetched; 429 the per-key limits every authenticated call counts in.
 */
export const ApiCredentials = (): ClassDecorator =>
  applyDecorators(ApiBearerAuth(), ApiErrors(401, 429, 503));
