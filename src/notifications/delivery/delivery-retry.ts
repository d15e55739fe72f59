import type { AttemptOutcome } from './attempt-outcome';
import { retryDelayMs } from './delivery-job';

/** What an attempt's outcome means for its delivery. */
export type RetryDecision =
  { state: 'delivered' } | { state: 'failed' } | { state: 'retry_scheduled'; delayMs: number };

/**
 * Whether attempt `attempt` ends the delivery or another follows, and after how long
 * (`schedule`: WEBHOOK_RETRY_SCHEDULE). A receiver's `Retry-After` replaces the scheduled delay,
 * not the number of attempts.
 */
export function decideRetry(
  outcome: AttemptOutcome,
  attempt: number,
  schedule: readonly number[],
  random: () => number = Math.random,
): RetryDecision {
  if (outcome.status === 'success') return { state: 'delivered' };
  if (!outcome.retryable) return { state: 'failed' };
  const scheduled = retryDelayMs(schedule, attempt, random);
  if (scheduled === null) return { state: 'failed' };
  return { state: 'retry_scheduled', delayMs: outcome.retryAfterMs ?? scheduled };
}
