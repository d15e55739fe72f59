import type { QueueDeclaration } from '../../scheduler/queue-declaration';
import { DIGEST_QUEUE } from '../../scheduler/queues';

/**
 * A digest job sends its user's digests of one period (one per destination) at once, each
 * attempt bounded like a delivery's; past this the queue brings back a job whose worker died.
 */
export const DIGEST_JOB_EXPIRY_SECONDS = 120;

const MAX_FETCH = 256;

/**
 * The digest queue (docs/attention.md, "Digests"), worked by `DigestService.sendBatch`. Like
 * deliveries, the worker schedules a digest's retries itself; the queue's own retries bring back a
 * job whose worker died or crashed. Jobs come in batches: many periods end in the same minute
 * (every user with the default 08:00).
 */
export const DIGEST_QUEUE_DECLARATION: QueueDeclaration = {
  name: DIGEST_QUEUE,
  label: 'digests',
  retryLimit: 12,
  retryDelaySeconds: 2,
  retryBackoff: true,
  expireInSeconds: DIGEST_JOB_EXPIRY_SECONDS,
  // Digest jobs in flight at once in one process (each mostly waits on its receivers).
  concurrency: 512,
  maxFetch: MAX_FETCH,
  minFetch: MAX_FETCH / 4,
  idleMs: 500,
};
