import { HttpException, HttpStatus, PayloadTooLargeException } from '@nestjs/common';
import { json, type NextFunction, type Request, type Response } from 'express';
import { RequestValidationException } from '../errors/validation-issue';

export const MAX_BODY_BYTES = 100 * 1024;

interface BodyParserError {
  type?: string;
  message?: string;
  status?: number;
}

/**
 * Parses JSON bodies (at most 100 kB) and turns the parser's errors into the API's own:
 * malformed JSON is a 422 in the array form, an oversized body a 413.
 */
export function jsonBody() {
  const parse = json({ limit: MAX_BODY_BYTES, type: ['application/json', 'application/*+json'] });
  return (request: Request, response: Response, next: NextFunction): void => {
    parse(request, response, (error?: unknown) => next(error ? toHttpError(error) : undefined));
  };
}

function toHttpError(error: unknown): HttpException {
  const parserError = (error ?? {}) as BodyParserError;
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
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpException(
        parserError.message ?? 'Unsupported content encoding',
        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      );
    default:
      return new HttpException(
        parserError.message ?? 'Bad request',
        parserError.status && parserError.status < 500 ? parserError.status : 400,
      );
  }
}
