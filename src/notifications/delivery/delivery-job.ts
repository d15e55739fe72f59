import { createHash } from 'node:crypto';
import type { NotificationType } from '../channels/channel-registry';
import type { DeliveryEvent } from '../channels/notification-types';

/** What the check runner queues for a delivery: its first attempt. */
export interface DeliveryJobData {
  executionId: string;
  taskId: string;
  channel: NotificationType;
  /** Absent in jobs queued before events existed: `condition_met`. */
  event?: DeliveryEvent;
  /** An alert that waits for its task's cooldown to end then (docs/attention.md, "Cooldown"). */
  cooldownUntil?: string;
  /** A reminder: which one (1, 2, ...) of the standing alert of `executionId`. */
  repeat?: number;
}

/**
 * The data of a delivery job. The check runner queues the first attempt with
 * `{executionId, taskId, channel}` under the delivery id; each later attempt is a job of its own
 * that also carries the delivery id, its attempt number and the webhook id.
 */
export interface DeliveryAttemptJobData extends DeliveryJobData {
  deliveryId?: string;
  attempt?: number;
  webhookId?: string;
}

/** What one job asks for, with the defaults of a first attempt filled in. */
export interface DeliveryAttempt extends DeliveryJobData {
  event: DeliveryEvent;
  jobId: string;
  deliveryId: string;
  attempt: number;
  webhookId: string;
}

export function toDeliveryAttempt(job: {
  id: string;
  data: DeliveryAttemptJobData;
}): DeliveryAttempt {
  const deliveryId = job.data.deliveryId ?? job.id;
  return {
    jobId: job.id,
    executionId: job.data.executionId,
    taskId: job.data.taskId,
    channel: job.data.channel,
    event: job.data.event ?? 'condition_met',
    cooldownUntil: job.data.cooldownUntil,
    repeat: job.data.repeat,
    deliveryId,
    attempt: job.data.attempt ?? 1,
    webhookId: job.data.webhookId ?? webhookIdFor(deliveryId),
  };
}

/** Standard Webhooks `webhook-id`: the same for every attempt of one delivery. */
export function webhookIdFor(deliveryId: string): string {
  return `msg_${deliveryId.replace(/-/g, '')}`;
}

/**
 * A UUID derived from its parts, so the job of a given attempt has one possible id: enqueueing it
 * again after a crash is a no-op instead of a second attempt.
 */
export function derivedJobId(...parts: Array<string | number>): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A delivery's job id, from (execution, channel, event): enqueueing it twice is a no-op. A
 * condition-met delivery keeps the id it had before there were other events.
 */
export function deliveryJobId(
  executionId: string,
  channel: NotificationType,
  event: DeliveryEvent = 'condition_met',
  repeat?: number,
): string {
  if (event === 'condition_met') return derivedJobId('delivery', executionId, channel);
  return repeat === undefined
    ? derivedJobId('delivery', executionId, channel, event)
    : derivedJobId('delivery', executionId, channel, event, repeat);
}

/** A queued delivery job: its derived id, its data and, for a later one, when it is due. */
export interface DeliveryJob {
  id: string;
  data: DeliveryAttemptJobData;
  startAfter?: Date;
}

/** The job of the `repeat`-th reminder of a standing alert through one channel. */
export function reminderJob(
  alert: { executionId: string; taskId: string; channel: NotificationType },
  repeat: number,
  at: Date,
): DeliveryJob {
  return {
    id: deliveryJobId(alert.executionId, alert.channel, 'reminder', repeat),
    data: { ...alert, event: 'reminder', repeat },
    startAfter: at,
  };
}

export function attemptJobId(deliveryId: string, attempt: number): string {
  return derivedJobId('delivery-attempt', deliveryId, attempt);
}

/** Jitter of ±10% spreads retries of many deliveries that failed together (one receiver down). */
export const RETRY_JITTER = 0.1;

/**
 * Delay before attempt `attempt + 1` after attempt `attempt` failed, or null when the schedule is
 * exhausted. `schedule[i]` is the delay between attempt i+1 and i+2 (WEBHOOK_RETRY_SCHEDULE).
 */
export function retryDelayMs(
  schedule: readonly number[],
  attempt: number,
  random: () => number = Math.random,
): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.max(0, Math.round(base * (1 + (random() * 2 - 1) * RETRY_JITTER)));
}
