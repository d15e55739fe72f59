/**
 * The queues of the durable job queue (pg-boss), named once for the service and the queries on its
 * tables; each owning feature declares its queue's options and worker (`@WorksQueue`).
 */
export const CHECK_QUEUE = 'task-check';
export const DELIVERY_QUEUE = 'notification-delivery';
/** Emails to an account's owner about the account itself (a config that paused itself). */
export const OWNER_NOTICE_QUEUE = 'owner-notice';
export const DIGEST_QUEUE = 'notification-digest';
export const QUEUE_SCHEMA = 'pgboss';

export interface CheckJobData {
  taskId: string;
  /**
   * Set for a run requested through the API, and for one the sweeper took back from a silent
   * worker: the execution row already exists.
   */
  executionId?: string;
  /**
   * Set by the sweeper for an execution whose worker went silent on its last attempt: the check
   * is ended as interrupted, not run again (docs/architecture.md, "Nothing is lost when a process
   * dies").
   */
  interrupted?: true;
}
