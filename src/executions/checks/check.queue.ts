import { WORST_CASE_PAGES_MS } from '../../pages/page-stage.service';
import type { QueueDeclaration } from '../../scheduler/queue-declaration';
import { CHECK_QUEUE } from '../../scheduler/queues';
import { worstCaseCheckMs } from '../../search/provider-call-budget';

/** Time a check needs besides its pages and provider calls: claiming it and recording its result. */
export const CHECK_BOOKKEEPING_MS = 2 * 60_000;

/**
 * A check's job outlives the check's worst case (docs/architecture.md, "A check is paid for once"),
 * the sum of what its stages say they need: a page task's pages each read to its deadline
 * (`WORST_CASE_PAGES_MS`, docs/pages.md, "Checks of page tasks"), every provider retry and
 * `Retry-After` (`worstCaseCheckMs`), plus the claim and the result's transaction.
 * Were it shorter, the queue would hand a slow check to a second worker, which would call the
 * provider again for the same run. Liveness of a running check is judged by its worker's heartbeat
 * (StaleExecutionSweeper); the expiry only catches a job fetched by a worker that died before
 * claiming it.
 */
export const CHECK_JOB_EXPIRY_SECONDS = Math.ceil(
  (WORST_CASE_PAGES_MS + worstCaseCheckMs() + CHECK_BOOKKEEPING_MS) / 1000,
);

/** Provider failures worth retrying are retried this many times by the queue. */
export const CHECK_RETRY_LIMIT = 2;

/** The check queue, worked by `CheckRunnerService.runBatch`. */
export const CHECK_QUEUE_DECLARATION: QueueDeclaration = {
  name: CHECK_QUEUE,
  label: 'checks',
  retryLimit: CHECK_RETRY_LIMIT,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: CHECK_JOB_EXPIRY_SECONDS,
  concurrency: (config) => config.workerConcurrency,
  maxFetch: 50,
  // A twentieth of the slots: claims, snapshot loads and results are written a batch at a time,
  // and checks that end one by one (pages read on threads do) would otherwise each fetch, claim
  // and record alone (BENCHMARKS.md, "Page monitors: changed pages against the build before the
  // reading threads").
  minFetch: (config) => Math.max(1, Math.floor(config.workerConcurrency / 20)),
  idleMs: 500,
  // The queue retries them (as soon as the database answers, after an outage); their executions
  // are recovered by the sweeper if need be.
  failBatchOnCrash: true,
};
