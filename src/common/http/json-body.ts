import { HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestValidationException } from '../errors/validation-issue';

export const MAX_BODY_BYTES = 100 * 1024;

/** `application/json` and `application/<anything>+json`, with or without parameters. */
const JSON_TYPE = /^application\/([\w.!#$%&'*^`|~-]+\+)?json\s*(;|$)/i;
/** The first character after JSON's whitespace (space, tab, line feed, carriage return). */
const FIRST_CHARACTER = /^[ \t\n\r]*(.)/s;

/**
 * The service's request bodies: JSON (`application/json`, `application/*+json`, UTF-8) of at
 * most 100 kB whose top level is an object or an array; malformed JSON is a 422 in the array
 * form, a larger body a 413. A body of any other type is dropped, so the route's validation
 * answers for the fields it misses. An empty JSON body is `{}`.
 */
export function registerJsonBody(instance: FastifyInstance): void {
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser(
    JSON_TYPE,
    { parseAs: 'string', bodyLimit: MAX_BODY_BYTES },
    (request, body, done) => {
      try {
        done(null, parseJson(request, String(body)));
      } catch (error) {
        done(error as Error);
      }
    },
  );
  instance.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES },
    (_request, _body, done) => done(null, undefined),
  );
}

function parseJson(request: FastifyRequest, text: string): unknown {
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity')
    throw new HttpException(
      `Unsupported content encoding "${encoding}"`,
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  const charset = /;\s*charset="?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset))
    throw new HttpException(
      `Unsupported charset "${charset.toUpperCase()}"`,
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  if (text.length === 0) return {};
  const first = FIRST_CHARACTER.exec(text)?.[1];
  if (first !== '{' && first !== '[')
    throw jsonInvalid(
      `Unexpected token ${JSON.stringify(first ?? '')}: expected an object or an array`,
    );
  try {
    return JSON.parse(text);
  } catch (error) {
    throw jsonInvalid(error instanceof Error ? error.message : 'Invalid JSON');
  }
}

function jsonInvalid(reason: string): RequestValidationException {
  return new RequestValidationException([
    {
      type: 'json_invalid',
      loc: ['body'],
      msg: 'JSON decode error',
      input: {},
      ctx: { error: reason },
    },
  ]);
}
