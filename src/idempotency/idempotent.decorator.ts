import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../common/openapi/api-errors.decorator';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * The route accepts `Idempotency-Key` (docs/api.md, "Idempotency-Key"): a retry with the same key
 * gets the first answer again instead of doing the work twice. The route's work keeps its answer
 * through `IdempotencyScope`, in its own transaction.
 */
export const Idempotent = (): MethodDecorator =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'A key of 1 to 255 visible ASCII characters: the same request with the same key within 24 hours answers the first answer again (header `Idempotent-Replayed: true`; a webhook `secret` as null, a 422 without `input`); another request with it is a 422, one while the first is still in progress a 409, and a new key while the user holds 10,000 live keys a 429.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
    }),
    ApiErrors(400, 409, 422),
  );
