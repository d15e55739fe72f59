import { UnprocessableEntityException } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One element of a 422 `detail` array (docs/api.md, "Errors"). */
export class ValidationIssue {
  @ApiProperty({ example: 'missing' })
  type: string;

  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    description: 'Where the input was: `body`, `query` or `path`, then the field',
    example: ['body', 'search_query'],
  })
  loc: (string | number)[];

  @ApiProperty({ example: 'Field required' })
  msg: string;

  @ApiProperty({
    description: 'The rejected value, as sent: any JSON value',
    oneOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'object', additionalProperties: true, nullable: true },
      { type: 'array', items: {} },
    ],
  })
  input: unknown;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
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
