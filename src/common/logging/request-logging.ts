import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { JsonLogger } from './json-logger';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request's id: the caller's `X-Request-Id` when it is sane, else a new one. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
    ? incoming
    : randomUUID();
}

/**
 * Answers every request with its id and logs one line per finished request. Only the method,
 * path (never the query string, which may hold an email), status and duration are logged: never
 * a header, so never a credential.
 */
export function requestLogging(logger: JsonLogger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const id = requestId(request);
    request.headers['x-request-id'] = id;
    response.setHeader('X-Request-Id', id);
    if (logger.isEnabled('info')) {
      const started = process.hrtime.bigint();
      response.on('finish', () => {
        const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        logger.log({
          msg: 'request',
          requestId: id,
          method: request.method,
          path: request.path,
          status: response.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
        });
      });
    }
    next();
  };
}
