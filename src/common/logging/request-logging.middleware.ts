import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { JsonLogger } from './json-logger';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Gives every request an id (the caller's `X-Request-Id` when it is sane) and logs one line per
 * finished request. Only the method, path (never the query string, which may hold an email),
 * status and duration are logged: never a header, so never a credential.
 */
export function requestLogging(logger: JsonLogger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const incoming = request.headers['x-request-id'];
    const requestId =
      typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    request.headers['x-request-id'] = requestId;
    response.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    response.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.log({
        msg: 'request',
        requestId,
        method: request.method,
        path: request.path,
        status: response.statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
      });
    });
    next();
  };
}
