import { UnprocessableEntityException } from '@nestjs/common';

/** One element of a 422 `detail` array (the interface document's "Errors" section). */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Thrown wherever input is rejected with 422, so every 422 has the same array shape. */
export class RequestValidationException extends UnprocessableEntityException {
  constructor(readonly issues: ValidationIssue[]) {
    super({ detail: issues });
  }
}

export function invalidUuid(
  location: 'path' | 'query' | 'body',
  field: string,
  input: unknown,
): RequestValidationException {
  return new RequestValidationException([
    {
      type: 'uuid_parsing',
      loc: [location, field],
      msg: 'Input should be a valid UUID',
      input,
    },
  ]);
}
