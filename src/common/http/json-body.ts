import { HttpException, HttpStatus, PayloadTooLargeException } from '@nestjs/common';
import { json, type NextFunction, type Request, type Response } from 'express';
import { RequestValidationException } from '../errors/validation-issue';

export const MAX_BODY_BYTES = 100 * 1024;

/** `application/json` and `application/<anything>+json`, with or without parameters. */
const JSON_TYPE = /^application\/([\w.!#$%&'*^`|~-]+\+)?json\s*(;|$)/i;

/**
 * The service's request bodies: JSON (`application/json`, `application/*+json`, UTF-8, not
 * compressed) of at most 100 kB whose top level is an object or an array; malformed JSON is a
 * 422 in the array form, a larger body a 413, another charset or a compressed body a 415. A body
 * of any other type is left unread, so the route's validation answers for the fields it misses.
 * An empty JSON body is `{}`.
 */
export function jsonBody() {
  const parse = json({
    limit: MAX_BODY_BYTES,
    inflate: false,
    strict: true,
    // The middleware below hands it only JSON types: no second test of the header.
    type: () => true,
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

function toHttpError(error: unknown): HttpException {
  const parserError = (error ?? {}) as { type?: string; message?: string; status?: number };
  switch (parserError.type) {
    case 'entity.parse.failed':
      return new RequestValidationException([
        {
          type: 'json_invalid',
          loc: ['body'],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: parserError.message ?? 'Invalid JSON' },
        },
      ]);
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
