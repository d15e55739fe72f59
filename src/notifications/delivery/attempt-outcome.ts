import type { SendStatus } from '../channels/notification-types';

/** The result of one delivery attempt through one channel. */
export interface AttemptOutcome {
  status: SendStatus;
  /** Null on success; otherwise what went wrong (`HTTP 500`, an SMTP reply, a network error). */
  errorMessage: string | null;
  /** A later attempt may succeed (the schedule decides whether there is one). */
  retryable: boolean;
  /** The receiver asked to wait this long before the next attempt (`Retry-After` on a 429). */
  retryAfterMs?: number;
}

export const SUCCEEDED: AttemptOutcome = {
  status: 'success',
  errorMessage: null,
  retryable: false,
};

export function failedAttempt(errorMessage: string, retryable: boolean): AttemptOutcome {
  return { status: 'failed', errorMessage, retryable };
}
