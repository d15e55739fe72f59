import { HttpException, HttpStatus, PayloadTooLargeException } from '@nestjs/common';
import { json, type NextFunction, type Request, type Response } from 'express';
import { RequestValidationException } from '../errors/validation-issue';

export const MAX_BODY_BYTES = 100 * 1024;

export interface JsonBodyLimits {
  /** Arrays and objects nested deeper than this are a 422; without it, any depth is read. */
  maxDepth?: number;
}

/** `application/json` and `application/<anything>+json`, with or without parameters. */
const JSON_TYPE = /^application\/([\w.!#$%&'*^`|~-]+\+)?json\s*(;|$)/i;

/**
 * The service's request bodies: JSON (`application/json`, `application/*+json`, UTF-8, not
 * compressed) of at most 100 kB whose top level is an object or an array; malformed JSON is a
 * 422 in the array form, a larger body a 413, another charset or a compressed body a 415. A body
 * of any other type is left unread, so the route's validation answers for the fields it misses.
 * An empty JSON body is `{}`. With `maxDepth`, a body nesting arrays and objects deeper is a 422
 * too, found in its text before it is parsed, so nothing later walks a value deep enough to
 * exhaust the stack.
 */
export function jsonBody(limits: JsonBodyLimits = {}) {
  const { maxDepth } = limits;
  const parse = json({
    limit: MAX_BODY_BYTES,
    inflate: false,
    strict: true,
    // The middleware below hands it only JSON types: no second test of the header.
    type: () => true,
    verify:
      maxDepth === undefined
        ? undefined
        : (_request, _response, text) => {
            if (nestsDeeperThan(text, maxDepth)) throw new TooDeepError(maxDepth);
          },
  });
  return (request: Request, response: Response, next: NextFunction): void => {
    if (!JSON_TYPE.test(request.headers['content-type'] ?? '')) return next();
    const refused = unsupported(request);
    if (refused) return next(refused);
    parse(request, response, (error?: unknown) => next(error ? toHttpError(error) : undefined));
  };
}

function unsupported(request: Request): HttpException | null {
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity')
    return new HttpException(
      `Unsupported content encoding "${encoding}"`,
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  const charset = /;\s*charset="?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset))
    return new HttpException(
      `Unsupported charset "${charset.toUpperCase()}"`,
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  return null;
}

/** The body parser hands on an error thrown by `verify` with this `type`. */
const TOO_DEEP = 'entity.too.deep';

class TooDeepError extends Error {
  readonly type = TOO_DEEP;

  constructor(maxDepth: number) {
    super(`Arrays and objects nest deeper than ${maxDepth} levels`);
  }
}

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text opens more than `maxDepth` arrays and objects inside one another, in one pass
 * over its bytes: brackets inside strings are text. UTF-8 continuation bytes are never ASCII, so
 * bytes are safe to compare. Text that is not JSON gets any answer; the parser then refuses it.
 */
export function nestsDeeperThan(text: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const byte = text[index];
    if (inString) {
      if (byte === BACKSLASH) index++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

function invalidJson(reason: string): RequestValidationException {
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

function toHttpError(error: unknown): HttpException {
  const parserError = (error ?? {}) as { type?: string; message?: string; status?: number };
  switch (parserError.type) {
    case 'entity.parse.failed':
    case TOO_DEEP:
      return invalidJson(parserError.message ?? 'Invalid JSON');
    case 'entity.too.large':
      return new PayloadTooLargeException(
        `Request body too large (limit ${MAX_BODY_BYTES / 1024} kB)`,
      );
    case 'request.size.invalid':
      return new HttpException('Request body shorter than its Content-Length', 400);
    case 'request.aborted':
      return new HttpException('Request aborted', 400);
    default:
      return new HttpException('Unreadable request body', 400);
  }
}
