import type { NotificationConfig } from '../notifications/channels/notification-config';
import { subscribesTo, type NotificationType } from '../notifications/channels/notification-types';
import type { NotifyBehavior, TaskState } from '../tasks/task.entity';

export interface NotifyDecision {
  notify: boolean;
  /** Why: condition_not_met, condition_met, state_unchanged, task_completed, check_failed */
  reason: string;
  channels: NotificationType[];
  /** true when the task completes with this execution (`once` and a met condition) */
  completes_task: boolean;
  /** A failing-streak event this execution raises, when it raises one. */
  alert?: StreakAlert;
}

export interface StreakAlert {
  event: 'check_failing' | 'check_recovered';
  /** The streak: its length at the alert, or the length that the recovery ended. */
  consecutive_failures: number;
  channels: NotificationType[];
}

export interface StreakInput {
  failed: boolean;
  /** The task's streak before this execution. */
  consecutiveFailures: number;
  /** Whether the streak has alerted already. */
  alerted: boolean;
  /** ALERT_AFTER_FAILURES */
  alertAfter: number;
  configs: Array<Pick<NotificationConfig, 'type' | 'events'>>;
}

export interface StreakDecision {
  consecutiveFailures: number;
  alerted: boolean;
  alert: StreakAlert | null;
}

/**
 * Contract section 5, "Events": `check_failing` once per streak, when it reaches `alertAfter`
 * failed executions; `check_recovered` on the first success after a streak that alerted. The
 * channels are the configs subscribed to the event.
 */
export function decideFailureStreak(input: StreakInput): StreakDecision {
  const alert = (event: StreakAlert['event'], length: number): StreakAlert => ({
    event,
    consecutive_failures: length,
    channels: channelsFor(input.configs, event),
  });
  if (input.failed) {
    const length = input.consecutiveFailures + 1;
    const raises = !input.alerted && length >= input.alertAfter;
    return {
      consecutiveFailures: length,
      alerted: input.alerted || raises,
      alert: raises ? alert('check_failing', length) : null,
    };
  }
  return {
    consecutiveFailures: 0,
    alerted: false,
    alert: input.alerted ? alert('check_recovered', input.consecutiveFailures) : null,
  };
}

/** The channel types of the configs that want `event`. */
export function channelsFor(
  configs: Array<Pick<NotificationConfig, 'type' | 'events'>>,
  event: Parameters<typeof subscribesTo>[1],
): NotificationType[] {
  return configs.filter((config) => subscribesTo(config, event)).map((config) => config.type);
}

export interface NotifyInput {
  conditionMet: boolean;
  currentState: Record<string, unknown>;
  answer: string;
  taskState: TaskState;
  notifyBehavior: NotifyBehavior;
  /** The state recorded when the task last notified (`last_known_state`). */
  lastNotifiedState: Record<string, unknown> | null;
  channels: NotificationType[];
}

/**
 * Decides whether an execution notifies (docs/api.md):
 * `once` notifies on the first met condition and completes the task; `always` notifies when the
 * reported state differs from the one recorded at the last notification; a completed task never
 * notifies again.
 */
export function decideNotification(input: NotifyInput): NotifyDecision {
  const silent = (reason: string): NotifyDecision => ({
    notify: false,
    reason,
    channels: [],
    completes_task: false,
  });
  if (!input.conditionMet) return silent('condition_not_met');
  if (input.taskState === 'completed') return silent('task_completed');
  if (
    input.notifyBehavior === 'always' &&
    stateKey(input.lastNotifiedState) === stateKey(comparableState(input))
  ) {
    return silent('state_unchanged');
  }
  return {
    notify: true,
    reason: 'condition_met',
    channels: input.channels,
    completes_task: input.notifyBehavior === 'once' && input.taskState === 'active',
  };
}

/**
 * The state to record at a notification: what the model reported, or the answer itself when the
 * model reported no state (so "the same news" is still recognised).
 */
export function comparableState(
  input: Pick<NotifyInput, 'currentState' | 'answer'>,
): Record<string, unknown> {
  return Object.keys(input.currentState).length > 0
    ? input.currentState
    : { answer: input.answer.trim() };
}

/** Canonical JSON (sorted keys) so equal states compare equal whatever their key order. */
export function stateKey(state: unknown): string {
  return JSON.stringify(sortKeys(state ?? null));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
