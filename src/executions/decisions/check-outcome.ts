import type { NotificationType } from '../../notifications/channels/channel-registry';
import type { NotificationEvent } from '../../notifications/channels/notification-types';
import { errorCodeOf } from '../../common/errors/coded-error';
import type { CheckIntervalBounds } from '../../search/check-prompts';
import type { OutputSchema, OutputValues } from '../../search/output-schema';
import type { CheckResult, ProviderUsage } from '../../search/search-provider';
import type { EvidenceRule } from '../../tasks/evidence-rule';
import type { NotificationConfig } from '../../notifications/channels/channel-registry';
import type { AlertPolicy } from '../../attention/alert-policy';
import type { NotifyBehavior } from '../../search/search.types';
import type { TaskState } from '../../tasks/task-state';
import { startOfNextMonth } from '../../usage/usage-month';
import { CheckErrorCode } from './check-errors';
import { retriesCheck } from './check-retry';
import { assessEvidence, type EvidenceReport } from './evidence';
import { nextPagePace, type PagePace, type PagePaceBounds } from './page-pace';
import {
  channelsFor,
  comparableState,
  decideFailureStreak,
  decideNotification,
  decideRetraction,
  decideValuesChanged,
  type NotifyDecision,
  type StreakAlert,
} from './notify-decision';
import { diffValues, type PreviousValues, type ValueChange } from './value-changes';

/** When the agent gives no usable time, check again after this long (then clamped to the bounds). */
export const DEFAULT_CHECK_INTERVAL_MS = 60 * 60_000;

/** A task row as a check's outcome finds it, locked for the update. */
export interface LockedTask {
  id: string;
  state: TaskState;
  notify_behavior: NotifyBehavior;
  notifications: NotificationConfig[];
  last_known_state: Record<string, unknown> | null;
  check_job_id: string | null;
  consecutive_failures: number;
  failure_alerted: boolean;
  /** Null: the verdict is the model's, as claimed. */
  evidence: EvidenceRule | null;
  /** The execution whose met-condition notification stands (null when none, or not known). */
  alert_execution_id: string | null;
  alert_policy: AlertPolicy | null;
  /** When the last alert went out, or goes out at the end of its cooldown (docs/attention.md). */
  alert_sent_at: Date | null;
  /** The pace of checks whose verdict needs no model (`PagePace`); null before the first. */
  page_check_interval_ms: number | null;
  page_quiet_checks: number;
}

/**
 * A successful check's answer: a model's, or one a page check made without a model (`usage`
 * null: by its page rule, or carrying an earlier verdict; docs/pages.md).
 */
export interface CheckAnswer extends Omit<CheckResult, 'usage'> {
  usage: ProviderUsage | null;
  /**
   * Set when the pages did not change and the earlier verdict stands: the execution whose model
   * call made it, and the verdict that counted then.
   */
  carriedFrom?: { verdictExecutionId: string; conditionMet: boolean };
}

/** What the task's earlier successful checks said, as a check's outcome needs it. */
export interface CheckHistory {
  /** The latest successful executions (at most the 2 confirmations look at), newest first. */
  recent: Array<{ conditionMet: boolean; claimedMet: boolean }>;
  /** The latest successful execution with values. */
  previousValues: PreviousValues | null;
}

export const NO_HISTORY: CheckHistory = { recent: [], previousValues: null };

export interface CheckOutcomeInput {
  /** The check's task; absent when it was deleted while the check ran. */
  task: LockedTask | undefined;
  executionId: string;
  outcome: CheckAnswer | Error;
  /** The schema the check extracted values with (read when it was claimed) and its key. */
  schema: { schema: OutputSchema; key: string } | null;
  history: CheckHistory;
  job: { id: string; retryCount: number };
  /**
   * For a check whose verdict needs no model (docs/pages.md, "When a page task is checked"):
   * whether some page changed. Null for a check a model answers or could have answered.
   */
  pageCheck: { changed: boolean } | null;
  now: Date;
  config: { alertAfterFailures: number; scheduler: CheckIntervalBounds & PagePaceBounds };
}

/**
 * What a successful check found, as its execution records it (docs/api.md, "Values, evidence,
 * confirmation and retraction").
 */
export interface CheckVerdict {
  /** The model's verdict. */
  claimedMet: boolean;
  /** The verdict that counts: `claimedMet`, and the evidence rule satisfied when there is one. */
  conditionMet: boolean;
  evidence: EvidenceReport;
  /** Null without a schema. */
  values: OutputValues | null;
  /** Null without a schema; `[]` on a baseline. */
  changes: ValueChange[] | null;
}

/** What a recorded check writes to its task. */
export interface TaskOutcome {
  state: TaskState;
  stateChanged: boolean;
  lastKnownState: Record<string, unknown> | null;
  consecutiveFailures: number;
  failureAlerted: boolean;
  /** Leaves next_run and the check job as they are (a paused or completed task). */
  keepSchedule: boolean;
  /** When the next check runs (a check job is scheduled then); null clears the schedule. */
  nextRun: Date | null;
  /** The task's pace after a check whose verdict needs no model; null leaves it as it is. */
  pagePace: PagePace | null;
  /** The execution whose met-condition notification stands, after this check. */
  alertExecutionId: string | null;
}

/** The job goes back to the queue: the execution retries with this error, nothing else moves. */
export interface RetryPlan {
  completesJob: false;
  message: string;
}

/** A delivery job a recorded check queues: one event through one channel. */
export interface PlannedDelivery {
  event: NotificationEvent;
  channel: NotificationType;
}

/** The check ends: its execution, then (once recorded) its task, schedule and deliveries. */
export interface FinalPlan {
  completesJob: true;
  /** Stored on the execution. */
  notification: NotifyDecision;
  /** Null for a failed check. */
  verdict: CheckVerdict | null;
  /** Absent when the task was deleted. */
  task: TaskOutcome | null;
  /** A check job of the task other than this one, now superseded. */
  checkJobToRemove: string | null;
  deliveries: PlannedDelivery[];
}

export type CheckOutcomePlan = RetryPlan | FinalPlan;

/** How a check that does not go back to the queue ended. */
type CheckEnding =
  | { failed: true; error: Error; verdict: null }
  | { failed: false; result: CheckAnswer; verdict: CheckVerdict };

/**
 * Decides what a check's outcome means (docs/architecture.md): a retryable
 * error under the retry limit sends the job back; otherwise the execution ends, a `once` task
 * whose condition is met completes, an active task gets its next check, a paused or completed one
 * keeps its (absent) schedule, and the notification and failing-streak events become deliveries.
 */
export function planCheckOutcome(input: CheckOutcomeInput): CheckOutcomePlan {
  const { task, outcome } = input;
  if (outcome instanceof Error && retriesCheck(outcome, input.job.retryCount)) {
    return { completesJob: false, message: outcome.message };
  }
  const ending = endingOf(outcome, task?.evidence ?? null, input);
  return task ? finalPlan(task, ending, input) : deletedTaskPlan(ending.verdict);
}

function endingOf(
  outcome: CheckAnswer | Error,
  rule: EvidenceRule | null,
  input: Pick<CheckOutcomeInput, 'schema' | 'history'>,
): CheckEnding {
  return outcome instanceof Error
    ? { failed: true, error: outcome, verdict: null }
    : { failed: false, result: outcome, verdict: judge(outcome, rule, input) };
}

/** The task was deleted while the check ran: only the execution is recorded. */
function deletedTaskPlan(verdict: CheckVerdict | null): FinalPlan {
  return {
    completesJob: true,
    notification: silentDecision('task_deleted'),
    verdict,
    task: null,
    checkJobToRemove: null,
    deliveries: [],
  };
}

/** The check ends on its task: what it notifies, what the task becomes, what it queues. */
function finalPlan(task: LockedTask, ending: CheckEnding, input: CheckOutcomeInput): FinalPlan {
  const streak = decideFailureStreak({
    failed: ending.failed,
    consecutiveFailures: task.consecutive_failures,
    alerted: task.failure_alerted,
    alertAfter: input.config.alertAfterFailures,
    configs: task.notifications,
  });
  const decision = ending.failed
    ? silentDecision('check_failed')
    : decideOnResult(task, ending.result, ending.verdict, input.history);
  const bounds = input.config.scheduler;
  const pagePace = input.pageCheck && nextPagePace(paceOf(task), input.pageCheck.changed, bounds);
  const schedule = nextSchedule(task, decision, ending, input.now, bounds, pagePace);
  return {
    completesJob: true,
    notification: streak.alert ? { ...decision, alert: streak.alert } : decision,
    verdict: ending.verdict,
    task: {
      state: decision.completes_task ? 'completed' : task.state,
      stateChanged: decision.completes_task,
      ...standingAlert(task, ending, decision, input.executionId),
      consecutiveFailures: streak.consecutiveFailures,
      failureAlerted: streak.alerted,
      ...schedule,
      pagePace,
    },
    checkJobToRemove:
      !schedule.keepSchedule && task.check_job_id !== input.job.id ? task.check_job_id : null,
    deliveries: deliveriesOf(decision, streak.alert),
  };
}

/** What a successful check notifies, by the task's `notify_behavior`. */
function decideOnResult(
  task: LockedTask,
  result: CheckAnswer,
  verdict: CheckVerdict,
  history: CheckHistory,
): NotifyDecision {
  // Nothing new was read: a carried verdict notifies nothing and retracts nothing.
  if (result.carriedFrom) return silentDecision('pages_unchanged');
  const behavior = task.notify_behavior;
  if (behavior === 'on_change') return decideOnChange(task, verdict);
  const confirmations = task.evidence?.confirmations ?? 1;
  const notification = decideNotification({
    conditionMet: verdict.conditionMet,
    currentState: result.currentState,
    answer: result.answer,
    taskState: task.state,
    notifyBehavior: behavior,
    lastNotifiedState: task.last_known_state,
    channels: channelsFor(task.notifications, 'condition_met'),
    confirmations,
    previousMet: history.recent.map((run) => run.conditionMet),
  });
  const retraction = decideRetraction({
    notifyBehavior: behavior,
    taskState: task.state,
    claimedMet: verdict.claimedMet,
    previousClaimed: history.recent.map((run) => run.claimedMet),
    confirmations,
    lastNotifiedState: task.last_known_state,
    notifiedExecutionId: task.alert_execution_id,
    channels: channelsFor(task.notifications, 'condition_retracted'),
  });
  return retraction ? { ...notification, retraction } : notification;
}

/** An `on_change` task notifies changed values; a task its owner completed notifies no more. */
function decideOnChange(task: LockedTask, verdict: CheckVerdict): NotifyDecision {
  if (task.state === 'completed') return silentDecision('task_completed');
  return decideValuesChanged(verdict.changes, channelsFor(task.notifications, 'values_changed'));
}

/**
 * The task's standing alert after this check: a met condition that notifies becomes it; a
 * retraction clears it, the state too, so the next met condition notifies even when it is the same.
 */
function standingAlert(
  task: LockedTask,
  ending: CheckEnding,
  decision: NotifyDecision,
  executionId: string,
): Pick<TaskOutcome, 'lastKnownState' | 'alertExecutionId'> {
  if (!ending.failed && decision.notify && decision.event === 'condition_met') {
    return { lastKnownState: comparableState(ending.result), alertExecutionId: executionId };
  }
  if (decision.retraction) return { lastKnownState: null, alertExecutionId: null };
  return { lastKnownState: task.last_known_state, alertExecutionId: task.alert_execution_id };
}

/** The notification's, the retraction's and the streak alert's deliveries, in that order. */
function deliveriesOf(decision: NotifyDecision, alert: StreakAlert | null): PlannedDelivery[] {
  const event = decision.notify ? decision.event : undefined;
  return [
    ...(event ? deliveriesTo(event, decision.channels) : []),
    ...(decision.retraction
      ? deliveriesTo('condition_retracted', decision.retraction.channels)
      : []),
    ...(alert ? deliveriesTo(alert.event, alert.channels) : []),
  ];
}

function deliveriesTo(event: NotificationEvent, channels: NotificationType[]): PlannedDelivery[] {
  return channels.map((channel) => ({ event, channel }));
}

/**
 * The verdict of a successful check (docs/api.md, "Values, evidence, confirmation and
 * retraction"): the evidence its sources give, the condition met only when the rule (if any) is
 * satisfied, and the values compared with the last ones.
 */
function judge(
  outcome: CheckAnswer,
  rule: EvidenceRule | null,
  input: Pick<CheckOutcomeInput, 'schema' | 'history'>,
): CheckVerdict {
  const evidence = assessEvidence(outcome.groundingSources, rule ?? undefined);
  const values = input.schema === null ? null : outcome.values;
  if (outcome.carriedFrom) {
    return {
      claimedMet: outcome.conditionMet,
      conditionMet: outcome.carriedFrom.conditionMet,
      evidence,
      values,
      changes: [],
    };
  }
  return {
    claimedMet: outcome.conditionMet,
    conditionMet: outcome.conditionMet && (rule === null || evidence.satisfied),
    evidence,
    values,
    changes:
      input.schema === null || values === null
        ? null
        : diffValues(input.schema.schema, input.schema.key, values, input.history.previousValues),
  };
}

/** The task's pace from its row; null before its first check without a model. */
function paceOf(task: LockedTask): PagePace | null {
  return task.page_check_interval_ms === null
    ? null
    : { intervalMs: task.page_check_interval_ms, quietChecks: task.page_quiet_checks };
}

/**
 * When an active task is checked next: the agent's choice (`nextRunAfter`), or for a check
 * without a model its pace's interval from now (docs/pages.md, "When a page task is checked").
 */
function nextSchedule(
  task: LockedTask,
  decision: NotifyDecision,
  ending: CheckEnding,
  now: Date,
  bounds: CheckIntervalBounds,
  pagePace: PagePace | null,
): Pick<TaskOutcome, 'keepSchedule' | 'nextRun'> {
  if (decision.completes_task) return { keepSchedule: false, nextRun: null };
  // A manual run of a paused or completed task changes neither its state nor its (absent) schedule.
  if (task.state !== 'active') return { keepSchedule: true, nextRun: null };
  if (ending.failed && errorCodeOf(ending.error) === CheckErrorCode.BUDGET_REACHED) {
    return { keepSchedule: false, nextRun: startOfNextMonth(now) };
  }
  const chosen = ending.failed ? null : ending.result.nextCheckAt;
  const nextRun = pagePace
    ? new Date(now.getTime() + pagePace.intervalMs)
    : nextRunAfter(now, chosen, ending.failed, bounds);
  // A met condition waiting for confirmation is checked again soon.
  const soon = new Date(now.getTime() + bounds.minIntervalMs);
  return {
    keepSchedule: false,
    nextRun: decision.awaiting_confirmation && soon < nextRun ? soon : nextRun,
  };
}

/** The agent's choice clamped to SCHEDULER_MIN_INTERVAL..SCHEDULER_MAX_INTERVAL from now. */
export function nextRunAfter(
  now: Date,
  chosen: Date | null,
  failed: boolean,
  bounds: CheckIntervalBounds,
): Date {
  const { minIntervalMs, maxIntervalMs } = bounds;
  const fallback = failed ? minIntervalMs : DEFAULT_CHECK_INTERVAL_MS;
  const wanted =
    chosen && Number.isFinite(chosen.getTime()) ? chosen.getTime() - now.getTime() : fallback;
  return new Date(now.getTime() + Math.min(maxIntervalMs, Math.max(minIntervalMs, wanted)));
}

function silentDecision(reason: string): NotifyDecision {
  return { notify: false, reason, channels: [], completes_task: false };
}
