import type {
  NotificationEvent,
  NotificationType,
} from '../notifications/channels/notification-types';
import { CHECK_RETRY_LIMIT } from '../scheduler/job-queue.service';
import type { CheckIntervalBounds } from '../search/check-prompts';
import { ProviderError, type CheckResult } from '../search/search-provider';
import type { NotificationConfig, NotifyBehavior, TaskState } from '../tasks/task.entity';
import { startOfNextMonth } from '../usage/usage-month';
import { budgetReachedMessage } from '../usage/usage.service';
import {
  channelsFor,
  comparableState,
  decideFailureStreak,
  decideNotification,
  type NotifyDecision,
} from './notify-decision';

/** When the agent gives no usable time, check again after this long (then clamped to the bounds). */
export const DEFAULT_CHECK_INTERVAL_MS = 60 * 60_000;

/** A check whose owner reached `USER_MONTHLY_BUDGET_USD`: no provider call, retried next month. */
export class BudgetReachedError extends Error {
  constructor(budgetUsd: number) {
    super(budgetReachedMessage(budgetUsd));
    this.name = 'BudgetReachedError';
  }
}

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
}

export interface CheckOutcomeInput {
  /** The check's task; absent when it was deleted while the check ran. */
  task: LockedTask | undefined;
  outcome: CheckResult | Error;
  job: { id: string; retryCount: number };
  now: Date;
  config: { alertAfterFailures: number; scheduler: CheckIntervalBounds };
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
}

/** The job goes back to the queue: the execution retries with this error, nothing else moves. */
export interface RetryPlan {
  completesJob: false;
  message: string;
}

/** The check ends: its execution, then (once recorded) its task, schedule and deliveries. */
export interface FinalPlan {
  completesJob: true;
  /** Stored on the execution. */
  notification: NotifyDecision;
  /** Absent when the task was deleted. */
  task: TaskOutcome | null;
  /** A check job of the task other than this one, now superseded. */
  checkJobToRemove: string | null;
  deliveries: Array<{ event: NotificationEvent; channel: NotificationType }>;
}

export type CheckOutcomePlan = RetryPlan | FinalPlan;

/**
 * Decides what a check's outcome means (README, "Architecture"): a retryable
 * error under the retry limit sends the job back; otherwise the execution ends, a `once` task
 * whose condition is met completes, an active task gets its next check, a paused or completed one
 * keeps its (absent) schedule, and the notification and failing-streak events become deliveries.
 */
export function planCheckOutcome(input: CheckOutcomeInput): CheckOutcomePlan {
  const { task, outcome, job, now, config } = input;
  const failed = outcome instanceof Error;
  if (failed && isRetryable(outcome) && job.retryCount < CHECK_RETRY_LIMIT) {
    return { completesJob: false, message: outcome.message };
  }
  if (!task) {
    return {
      completesJob: true,
      notification: silentDecision('task_deleted'),
      task: null,
      checkJobToRemove: null,
      deliveries: [],
    };
  }
  const streak = decideFailureStreak({
    failed,
    consecutiveFailures: task.consecutive_failures,
    alerted: task.failure_alerted,
    alertAfter: config.alertAfterFailures,
    configs: task.notifications,
  });
  const decision = failed
    ? silentDecision('check_failed')
    : decideNotification({
        conditionMet: outcome.conditionMet,
        currentState: outcome.currentState,
        answer: outcome.answer,
        taskState: task.state,
        notifyBehavior: task.notify_behavior,
        lastNotifiedState: task.last_known_state,
        channels: channelsFor(task.notifications, 'condition_met'),
      });
  const schedule = nextSchedule(task, decision, outcome, now, config.scheduler);
  const alert = streak.alert;
  return {
    completesJob: true,
    notification: alert ? { ...decision, alert } : decision,
    task: {
      state: decision.completes_task ? 'completed' : task.state,
      stateChanged: decision.completes_task,
      lastKnownState: decision.notify && !failed ? comparableState(outcome) : task.last_known_state,
      consecutiveFailures: streak.consecutiveFailures,
      failureAlerted: streak.alerted,
      ...schedule,
    },
    checkJobToRemove:
      !schedule.keepSchedule && task.check_job_id !== job.id ? task.check_job_id : null,
    deliveries: [
      ...(decision.notify ? decision.channels : []).map((channel) => ({
        event: 'condition_met' as const,
        channel,
      })),
      ...(alert ? alert.channels.map((channel) => ({ event: alert.event, channel })) : []),
    ],
  };
}

function nextSchedule(
  task: LockedTask,
  decision: NotifyDecision,
  outcome: CheckResult | Error,
  now: Date,
  bounds: CheckIntervalBounds,
): Pick<TaskOutcome, 'keepSchedule' | 'nextRun'> {
  if (decision.completes_task) return { keepSchedule: false, nextRun: null };
  // A manual run of a paused or completed task changes neither its state nor its (absent) schedule.
  if (task.state !== 'active') return { keepSchedule: true, nextRun: null };
  if (outcome instanceof BudgetReachedError) {
    return { keepSchedule: false, nextRun: startOfNextMonth(now) };
  }
  const failed = outcome instanceof Error;
  return {
    keepSchedule: false,
    nextRun: nextRunAfter(now, failed ? null : outcome.nextCheckAt, failed, bounds),
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

function isRetryable(error: Error): boolean {
  return error instanceof ProviderError
    ? error.retryable
    : error.name !== 'ProviderNotConfiguredError' && !(error instanceof BudgetReachedError);
}
