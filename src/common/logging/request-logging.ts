import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { JsonLogger } from './json-logger';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,100}$/;

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
export function registerRequestLogging(instance: FastifyInstance, logger: JsonLogger): void {
  instance.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  instance.addHook('onResponse', (request, reply, done) => {
    if (logger.isEnabled('info'))
      logger.log({
        msg: 'request',
        requestId: request.id,
        method: request.method,
        path: pathOf(request.url),
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
      });
    done();
  });
}

/** The path of a request target, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
