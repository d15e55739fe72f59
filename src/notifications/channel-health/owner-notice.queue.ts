import type { QueueDeclaration } from '../../scheduler/queue-declaration';
import { OWNER_NOTICE_QUEUE } from '../../scheduler/queues';
import { DELIVERY_JOB_EXPIRY_SECONDS } from '../delivery/delivery.queue';

/**
 * The owner notices' queue, worked by `ChannelPausedNoticeWorker.sendAll`. A notice is one email:
 * the queue's retries are its retries, and it is bounded like a delivery attempt.
 */
export const OWNER_NOTICE_QUEUE_DECLARATION: QueueDeclaration = {
  name: OWNER_NOTICE_QUEUE,
  label: 'owner notices',
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: DELIVERY_JOB_EXPIRY_SECONDS,
  concurrency: 8,
  maxFetch: 8,
  minFetch: 1,
  idleMs: 1000,
};
