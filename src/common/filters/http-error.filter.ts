import {
  ArgumentsHost,
  Catch,
  HttpException,
  HttpStatus,
  Injectable,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { isDatabaseUnavailable } from '../../database/database-errors';
import { RequestValidationException } from '../errors/validation-issue';
import { loggedRoute } from '../logging/http-logging';
import { RouteIndex } from './route-index';

interface ErrorBody {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The 503 of a database outage (docs/api.md, "Errors") and how soon to try again. */
export const DATABASE_UNAVAILABLE = 'Database unavailable';
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The one error path: every error leaves the service as `{"detail": ...}`, framework 404/405
 * included. Anything unexpected is logged and answered with a generic 500. A 500 also carries
 * the request id (`request_id`, as in the log line of the error); what the database, the queue
 * or an SMTP server said stays in the log (docs/api.md, "Errors"). While
 * the database cannot be reached, the answer is 503 `Database unavailable` with `Retry-After`.
 */
@Catch()
@Injectable()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(
    private readonly routes: RouteIndex,
    @InjectPinoLogger(HttpErrorFilter.name) private readonly logger: PinoLogger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const context = host.switchToHttp();
    const request = context.getRequest<Request>();
    const response = context.getResponse<Response>();
    const error = this.describe(exception, request);
    if (response.headersSent) return;
    if (error.headers) response.set(error.headers);
    if (error.status === Number(HttpStatus.INTERNAL_SERVER_ERROR)) {
      error.body = { ...error.body, request_id: request.headers['x-request-id'] };
    }
    // A route may have set another Content-Type (RSS) before failing: errors are always JSON.
    response.status(error.status).type('application/json; charset=utf-8').json(error.body);
  }

  describe(exception: unknown, request: Request): ErrorBody {
    if (exception instanceof RequestValidationException) {
      return { status: HttpStatus.UNPROCESSABLE_ENTITY, body: { detail: exception.issues } };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(
        {
          requestId: request.id,
          method: request.method,
          route: loggedRoute(request),
          err: exception,
        },
        'Database unavailable',
      );
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        body: { detail: DATABASE_UNAVAILABLE },
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      };
    }
    if (exception instanceof HttpException) {
      return this.fromHttpException(exception, request);
    }
    this.logger.error(
      {
        requestId: request.id,
        method: request.method,
        route: loggedRoute(request),
        err: exception,
      },
      'Unhandled error',
    );
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: { detail: 'Internal server error' } };
  }

  private fromHttpException(exception: HttpException, request: Request): ErrorBody {
    const status: number = exception.getStatus();
    const payload = exception.getResponse();
    if (status === Number(HttpStatus.NOT_FOUND) && isRouterNotFound(payload, request)) {
      const allowed = this.routes.allowedMethods(request.path);
      if (allowed.length > 0) {
        return {
          status: HttpStatus.METHOD_NOT_ALLOWED,
          body: { detail: 'Method Not Allowed' },
          headers: { Allow: allowed.join(', ') },
        };
      }
      return { status, body: { detail: 'Not Found' } };
    }
    if (typeof payload === 'object' && payload !== null && 'detail' in payload) {
      const { headers, ...body } = payload as Record<string, unknown>;
      return { status, body, headers: headers as Record<string, string> | undefined };
    }
    const message = typeof payload === 'string' ? payload : messageOf(payload, exception.message);
    if (status >= 500) {
      this.logger.warn(
        {
          requestId: request.id,
          status,
          route: loggedRoute(request),
          error: message,
          // The failure behind the answer (a database or queue error): the log's, never the body's.
          err: exception.cause,
        },
        'Server error answered',
      );
    }
    return { status, body: { detail: message } };
  }
}

/** The not-found answer of Nest's router: `Cannot <method> <request target>`. */
function isRouterNotFound(payload: unknown, request: Request): boolean {
  const message =
    typeof payload === 'object' && payload !== null
      ? (payload as { message?: unknown }).message
      : payload;
  return (
    typeof message === 'string' && message === `Cannot ${request.method} ${request.originalUrl}`
  );
}

/** The text of a Nest exception body (`message` may be a string or a list of strings). */
function messageOf(payload: object, fallback: string): string {
  const message = (payload as { message?: unknown }).message;
  if (Array.isArray(message)) return message.map((part) => String(part)).join('; ');
  return typeof message === 'string' ? message : fallback;
}
