import type { QueueDeclaration } from '../../scheduler/queue-declaration';
import { DELIVERY_QUEUE } from '../../scheduler/queues';

/**
 * A delivery attempt is bounded well under this (15 s webhook timeout, 45 s SMTP timeout); past
 * it the queue brings back a job whose worker died.
 */
export const DELIVERY_JOB_EXPIRY_SECONDS = 60;

const MAX_FETCH = 512;

/**
 * The delivery queue, worked by `NotificationDeliveryService.deliverBatch`. The worker schedules
 * every channel's retries itself (one job per attempt); the queue's own retries only bring back a
 * job whose worker died (its expiry) or crashed on it.
 */
export const DELIVERY_QUEUE_DECLARATION: QueueDeclaration = {
  name: DELIVERY_QUEUE,
  label: 'deliveries',
  retryLimit: 12,
  retryDelaySeconds: 2,
  retryBackoff: true,
  expireInSeconds: DELIVERY_JOB_EXPIRY_SECONDS,
  // Deliveries under way at once in one process (they mostly wait on the network).
  concurrency: 1024,
  maxFetch: MAX_FETCH,
  // Each fetch sorts every due job (pg-boss): wait for room for a large batch.
  minFetch: MAX_FETCH / 2,
  idleMs: 250,
};
