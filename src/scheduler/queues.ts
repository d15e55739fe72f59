/** The queues of the durable job queue (pg-boss), named once for the service and its queries. */
export const CHECK_QUEUE = 'task-check';
export const DELIVERY_QUEUE = 'notification-delivery';
export const QUEUE_SCHEMA = 'pgboss';

/** Provider failures worth retrying are retried this many times by the queue. */
export const CHECK_RETRY_LIMIT = 2;

export interface CheckJobData {
  taskId: string;
  /** Set for a run requested through the API: the execution row already exists. */
  executionId?: string;
}
