import { SetMetadata } from '@nestjs/common';

export const IP_RATE_LIMIT_KEY = 'rate-limit:ip';

export interface IpRateLimitRule {
  /** Counter name: each endpoint counts separately. */
  name: string;
  perMinute: number;
}

/** Limits an endpoint per client IP (for the anonymous public surfaces). */
export const IpRateLimit = (name: string, perMinute: number): MethodDecorator =>
  SetMetadata(IP_RATE_LIMIT_KEY, { name, perMinute } satisfies IpRateLimitRule);
