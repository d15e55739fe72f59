import { applyDecorators } from '@nestjs/common';
import { ApiResponse, type ApiResponseOptions } from '@nestjs/swagger';
import { ErrorResponse, RateLimitErrorResponse, ValidationErrorResponse } from './error-responses';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503;

const RATE_LIMIT_HEADERS: ApiResponseOptions['headers'] = {
  'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
  'X-RateLimit-Limit': { description: 'The limit of the window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the window',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'When the window resets (epoch seconds)',
    schema: { type: 'integer' },
  },
};

/** What each error status means on this service; docs/api.md gives each route's messages. */
const ERROR_RESPONSES: Record<ErrorStatus, ApiResponseOptions> = {
  400: { description: 'The request breaks a rule of the service', type: ErrorResponse },
  401: {
    description: 'Credentials missing, invalid or expired, or the account is deactivated',
    type: ErrorResponse,
  },
  403: { description: 'Admin access required', type: ErrorResponse },
  404: { description: 'Not found, or not visible to the caller', type: ErrorResponse },
  409: { description: 'Conflicts with the current state', type: ErrorResponse },
  413: { description: 'Request body larger than 100 kB', type: ErrorResponse },
  415: {
    description: 'A JSON body in another charset than UTF-8, or compressed (Content-Encoding)',
    type: ErrorResponse,
  },
  422: {
    description: 'Invalid input: one entry per rejected value',
    type: ValidationErrorResponse,
  },
  429: {
    description: 'Rate limit exceeded',
    type: RateLimitErrorResponse,
    headers: RATE_LIMIT_HEADERS,
  },
  500: { description: 'The change failed and was rolled back', type: ErrorResponse },
  502: { description: 'The grounded-search provider failed', type: ErrorResponse },
  503: {
    description: 'A dependency is unavailable (identity-provider keys, search provider)',
    type: ErrorResponse,
  },
};

/** Declares error answers of a route (or of every route of a controller) with their bodies. */
export function ApiErrors(...statuses: ErrorStatus[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, ...ERROR_RESPONSES[status] })),
  );
}
