import type { CheckLogFields } from '../../common/logging/log-context';
import type { CheckMetric } from '../../metrics/metrics.service';
import type { PageResult, PageRule, PageTarget } from '../../pages/page.types';
import type { CheckJobData, QueueJob } from '../../scheduler/job-queue.service';
import { releaseDeadline } from '../../scheduler/queue-declaration';
import { outputSchemaKey, type OutputSchema } from '../../search/output-schema';
import { pageValuesSchema } from '../../pages/values/task-values';
import type { NotifyBehavior } from '../../search/search.types';
import type { CheckAnswer } from '../decisions/check-outcome';
import type { EarlierVerdict } from '../decisions/page-check';
import { CHECK_JOB_EXPIRY_SECONDS } from './check.queue';

/**
 * The logger context of every line the check pipeline writes (claims, results, a result that
 * could not be stored): one name, so one log query finds them all (docs/logging.md).
 */
export const CHECK_LOG_CONTEXT = 'CheckRunnerService';

/** A job whose execution is now `running` on this worker. */
export interface ClaimedCheck {
  job: QueueJob<CheckJobData>;
  executionId: string;
  /**
   * Which attempt at the execution this is: its result is written only while the execution is
   * still this attempt's (docs/architecture.md, "Nothing is lost when a process dies").
   */
  attempt: number;
  /**
   * When (`performance.now()`) this worker's last heartbeat stored before the claim was sent:
   * until its silence could have been taken for death from then, no other attempt can hold the
   * check.
   */
  vouchedAt: number;
  /** Its worker went silent on its last attempt: it ends as interrupted, without running. */
  interrupted: boolean;
  taskId: string;
  userId: string;
  /** The owner reached the monthly budget when the check's call was to be reserved. */
  budgetReached: boolean;
  /** The call's place under its owner's budget, ended with its result. */
  reservationId: string | null;
  searchQuery: string;
  conditionDescription: string;
  previousState: Record<string, unknown> | null;
  previousCheckAt: Date | null;
  /** The task's `output_schema` when the check was claimed: the one its values are read with. */
  outputSchema: OutputSchema | null;
  /** The task's pages (null: a web search) and page rule when the check was claimed. */
  pages: PageTarget[] | null;
  pageRule: PageRule | null;
  /** The task's `notify_behavior` when the check was claimed. */
  notifyBehavior: NotifyBehavior;
  /** The task's last successful verdict, which unchanged pages carry (docs/pages.md). */
  earlierVerdict: EarlierVerdict | null;
  /** Set when its outcome is written: how the check ended, for the metrics. */
  ended?: Omit<CheckMetric, 'durationSeconds'>;
}

/** A check whose call is over: what it came to, and the provider that was called. */
export interface FinishedCheck {
  check: ClaimedCheck;
  outcome: CheckAnswer | Error;
  /** The provider's name, recorded with a result. */
  provider: string;
  /** The pages the check read, in the task's order; null for a task without pages. */
  pageResults: PageResult[] | null;
}

/**
 * The schema a check's values are read and compared with, and its key: the task's
 * `output_schema`, else the values its pages declare (docs/pages.md, "Values read from pages");
 * null when it has neither.
 */
export function valuesSchemaOf(check: ClaimedCheck): { schema: OutputSchema; key: string } | null {
  const schema = check.outputSchema ?? pageValuesSchema(check.pages);
  return schema === null ? null : { schema, key: outputSchemaKey(schema) };
}

/** What every log line of this check carries. */
export function checkLogFields(check: ClaimedCheck): CheckLogFields {
  return { taskId: check.taskId, executionId: check.executionId };
}

/**
 * Until when a worker keeps trying to hand checks back while the database is out of reach: the
 * earliest expiry among them, after which the queue brings them back by itself.
 */
export function checkReleaseDeadline(jobs: Array<QueueJob<CheckJobData>>): number {
  return releaseDeadline(jobs, CHECK_JOB_EXPIRY_SECONDS);
}
