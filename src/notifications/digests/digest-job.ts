import { derivedJobId } from '../delivery/delivery-job';

/**
 * A user's digests of one period (docs/attention.md, "Digests"), due at its end: one job per
 * user and period (`digestJobId`), queued when an event is captured for it.
 */
export interface DigestPeriodJobData {
  userId: string;
  /** ISO times: the period's start (the previous scheduled time) and end (this one). */
  periodStart: string;
  periodEnd: string;
}

/** A later attempt of one digest, queued when the one before failed. */
export interface DigestAttemptJobData {
  digestId: string;
  attempt: number;
}

export type DigestJobData = DigestPeriodJobData | DigestAttemptJobData;

export function isDigestAttempt(data: DigestJobData): data is DigestAttemptJobData {
  return 'digestId' in data;
}

/** The one job of a user's period: queueing it again (every captured event does) is a no-op. */
export function digestJobId(userId: string, periodEnd: Date): string {
  return derivedJobId('digest', userId, periodEnd.toISOString());
}

/**
 * A digest's id, from (user, destination, period end): every worker and every run of a job finds
 * the same row, and the same id gives the same `webhook-id` and `Message-ID`.
 */
export function digestIdFor(userId: string, destination: string, periodEnd: Date): string {
  return derivedJobId('digest-destination', userId, destination, periodEnd.toISOString());
}

export function digestAttemptJobId(digestId: string, attempt: number): string {
  return derivedJobId('digest-attempt', digestId, attempt);
}
