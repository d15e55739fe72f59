import { WORST_CASE_PAGES_MS } from '../pages/page-stage.service';
import { worstCaseCheckMs } from '../search/provider-call-budget';

/** The queues of the durable job queue (pg-boss), named once for the service and its queries. */
export const CHECK_QUEUE = 'task-check';
export const DELIVERY_QUEUE = 'notification-delivery';
/** Emails to an account's owner about the account itself (a config that paused itself). */
export const OWNER_NOTICE_QUEUE = 'owner-notice';
export const DIGEST_QUEUE = 'notification-digest';
export const QUEUE_SCHEMA = 'pgboss';

/** Time a check needs besides its provider calls: claiming it and recording its result. */
export const CHECK_BOOKKEEPING_MS = 2 * 60_000;

/**
 * A check's job outlives the check's worst case (docs/architecture.md, "A check is paid for once"):
 * every provider retry and `Retry-After` included, a page task's pages each read to its deadline
 * (docs/pages.md, "Checks of page tasks"), plus the claim and the result's transaction.
 * Were it shorter, the queue would hand a slow check to a second worker, which would call the
 * provider again for the same run. Liveness of a running check is judged by its worker's heartbeat
 * (StaleExecutionSweeper); the expiry only catches a job fetched by a worker that died before
 * claiming it.
 */
export const CHECK_JOB_EXPIRY_SECONDS = Math.ceil(
  (WORST_CASE_PAGES_MS + worstCaseCheckMs() + CHECK_BOOKKEEPING_MS) / 1000,
);

/**
 * A delivery attempt is bounded well under this (15 s webhook timeout, 45 s SMTP timeout); past
 * it the queue brings back a job whose worker died.
 */
export const DELIVERY_JOB_EXPIRY_SECONDS = 60;

/**
 * A digest job sends its user's digests of one period (one per destination) at once, each
 * attempt bounded like a delivery's; past this the queue brings back a job whose worker died.
 */
export const DIGEST_JOB_EXPIRY_SECONDS = 120;

/** Provider failures worth retrying are retried this many times by the queue. */
export const CHECK_RETRY_LIMIT = 2;

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
