import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiErrors } from '../openapi/api-errors.decorator';

export const IP_RATE_LIMIT_KEY = 'rate-limit:ip';
export const LLM_RATE_LIMIT_KEY = 'rate-limit:llm';

export interface IpRateLimitRule {
  /** Counter name: each endpoint counts separately. */
  name: string;
  perMinute: number;
}

/** Limits an endpoint per client IP (for the anonymous public surfaces). */
export const IpRateLimit = (name: string, perMinute: number): MethodDecorator =>
  applyDecorators(
    SetMetadata(IP_RATE_LIMIT_KEY, { name, perMinute } satisfies IpRateLimitRule),
    ApiErrors(429),
  );

/**
 * The route calls the model: besides the caller's limits it counts in the user's
 * `RATE_LIMIT_LLM_PER_HOUR`, shared by all the user's credentials.
 */
export const LlmRateLimit = (): MethodDecorator => SetMetadata(LLM_RATE_LIMIT_KEY, true);
