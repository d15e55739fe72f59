import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { storage, Store } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
const EMAIL_SEGMENT = /[^/]*(?:@|%40)[^/]*/gi;

/** A request's id (contract section 10): the caller's `X-Request-Id` when it is sane, else a new one. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
    ? incoming
    : randomUUID();
}

/**
 * The path a log line names: the matched route's pattern (`/api/v1/email-verifications/:email`)
 * when a route matched, else the path without its query string, any segment holding an email
 * address masked (contract section 11).
 */
export function loggedRoute(request: IncomingMessage): string {
  const route = (request as Partial<Request>).route as { path?: unknown } | undefined;
  if (typeof route?.path === 'string') return route.path;
  const url = (request as Partial<Request>).originalUrl ?? request.url ?? '';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.includes('@') || path.includes('%40') ? path.replace(EMAIL_SEGMENT, '[email]') : path;
}

/** The one line per request: id (a binding), method, route, status and duration. */
function requestLine(
  request: IncomingMessage,
  response: ServerResponse,
  value: { responseTime: number },
) {
  return {
    method: request.method,
    route: loggedRoute(request),
    status: response.statusCode,
    durationMs: value.responseTime,
  };
}

/**
 * The request logger (pino-http), first of the application's middleware so every request,
 * refused ones included, gets its id (`X-Request-Id` on the answer, `requestId` on every line
 * logged while it runs, through nestjs-pino's request context) and its line. Nothing of a
 * header, the query string or the body is logged, so no credential and no address from a body.
 *
 * nestjs-pino's own middleware would run after the body parser and is registered as a route for
 * every method, which the 405 answers (`RouteIndex`) would read as allowed methods.
 */
export function requestLogging(logger: Logger) {
  const httpLogger = pinoHttp<Request, Response>({
    logger,
    genReqId: (request, response) => {
      const id = requestId(request);
      request.headers['x-request-id'] = id;
      response.setHeader('X-Request-Id', id);
      return id;
    },
    customAttributeKeys: { reqId: 'requestId' },
    // Lines logged during a request carry its id only; `req` is never serialized.
    quietReqLogger: true,
    quietResLogger: true,
    wrapSerializers: false,
    serializers: { req: () => undefined, res: () => undefined },
    // A 5xx answer is a warning; what went wrong is logged where it happened (at `error`).
    customLogLevel: (_request, response, error) =>
      error || response.statusCode >= 500 ? 'warn' : 'info',
    customSuccessObject: requestLine,
    customErrorObject: (request, response, _error, value: { responseTime: number }) =>
      requestLine(request, response, value),
  });
  return (request: Request, response: Response, next: NextFunction): void =>
    httpLogger(request, response, () => storage.run(new Store(request.log), next));
}
