import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** The most of an unmatched path a request line names (docs/logging.md, "Request lines"). */
export const LOGGED_PATH_MAX = 200;

/**
 * A request's id: the caller's `X-Request-Id` when it is sane, else a new one (docs/logging.md,
 * "Request lines").
 */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
    ? incoming
    : randomUUID();
}

/**
 * The path a log line names: the matched route's pattern (`/api/v1/email-verifications/:email`)
 * when a route matched, else the path without its query string, any segment holding an email
 * address masked, cut to its first `LOGGED_PATH_MAX` characters (docs/logging.md).
 */
export function loggedRoute(request: IncomingMessage): string {
  const route = (request as Partial<Request>).route as { path?: unknown } | undefined;
  if (typeof route?.path === 'string') return route.path;
  const url = (request as Partial<Request>).originalUrl ?? request.url ?? '';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const masked = holdsAddress(path)
    ? path
        .split('/')
        .map((segment) => (holdsAddress(segment) ? '[email]' : segment))
        .join('/')
    : path;
  return masked.length > LOGGED_PATH_MAX ? masked.slice(0, LOGGED_PATH_MAX) : masked;
}

function holdsAddress(text: string): boolean {
  return text.includes('@') || text.includes('%40');
}

/**
 * The request logger, ahead of the body parser and the routes so every request, refused ones
 * included, gets its id (`X-Request-Id` on the answer, `request.id`) and its one line: the id,
 * method, route, status and duration. Nothing of a header, the query string or the body is
 * logged, so no credential and no address from a body. A 5xx answer is a warning; what went
 * wrong is logged where it happened.
 *
 * It is pino-http's request line without pino-http: that middleware gives every request two
 * child loggers, several properties and listeners, which cost about 35 µs of CPU per request
 * here (a tenth of `GET /api/v1/tasks/{id}`), against none for these lines. For the same reason
 * requests are not bound to nestjs-pino's request context (an AsyncLocalStorage costs every
 * promise a hook on Node 20); the few lines logged inside a request name its id themselves.
 */
export function requestLogging(logger: Logger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const id = requestId(request);
    request.id = id;
    request.headers['x-request-id'] = id;
    response.setHeader('X-Request-Id', id);
    if (logger.isLevelEnabled('warn')) {
      const started = process.hrtime.bigint();
      response.once('close', () => {
        const status = response.statusCode;
        const line = {
          requestId: id,
          method: request.method,
          route: loggedRoute(request),
          status,
          durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
        };
        const message = response.writableFinished ? 'request completed' : 'request aborted';
        if (status >= 500) logger.warn(line, message);
        else logger.info(line, message);
      });
    }
    next();
  };
}
