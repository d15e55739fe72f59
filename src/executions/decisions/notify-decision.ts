import type { NotificationConfig } from '../../notifications/channels/channel-registry';
import type { NotificationType } from '../../notifications/channels/channel-registry';
import { subscribesTo } from '../../notifications/channels/notification-types';
import type { NotifyBehavior } from '../../search/search.types';
import type { TaskState } from '../../tasks/task-state';

export interface NotifyDecision {
  notify: boolean;
  /**
   * Why: condition_not_met, condition_met, state_unchanged, awaiting_confirmation,
   * task_completed, check_failed, pages_unchanged (a carried page verdict); for `on_change`:
   * values_changed, values_unchanged.
   */
  reason: string;
  /** What `notify` sends: `condition_met`, or `values_changed` for an `on_change` task. */
  event?: 'condition_met' | 'values_changed';
  channels: NotificationType[];
  /** true when the task completes with this execution (`once` and a met condition) */
  completes_task: boolean;
  /** true while a met condition waits for more met checks (`evidence.confirmations`). */
  awaiting_confirmation?: boolean;
  /** A failing-streak event this execution raises, when it raises one. */
  alert?: StreakAlert;
  /** The withdrawal of the last met-condition notification, when this execution sends one. */
  retraction?: RetractionNotice;
}

export interface RetractionNotice {
  /** The execution whose notification is withdrawn (null when it is not known). */
  retracted_execution_id: string | null;
  channels: NotificationType[];
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
 * docs/api.md, "Notifications" (events): `check_failing` once per streak, when it reaches `alertAfter`
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
  notifyBehavior: Exclude<NotifyBehavior, 'on_change'>;
  /** The state recorded when the task last notified (`last_known_state`). */
  lastNotifiedState: Record<string, unknown> | null;
  channels: NotificationType[];
  /** `evidence.confirmations`: met checks in a row needed to notify (default 1). */
  confirmations?: number;
  /** `condition_met` of the task's previous successful executions, newest first. */
  previousMet?: boolean[];
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
  if (!isConfirmed(input.confirmations ?? 1, input.previousMet ?? [])) {
    return { ...silent('awaiting_confirmation'), awaiting_confirmation: true };
  }
  return {
    notify: true,
    reason: 'condition_met',
    event: 'condition_met',
    channels: input.channels,
    completes_task: input.notifyBehavior === 'once' && input.taskState === 'active',
  };
}

/**
 * `confirmations` (docs/api.md, "Values, evidence, confirmation and retraction"): a met check counts only when the task's previous
 * `confirmations - 1` successful checks were met too.
 */
export function isConfirmed(confirmations: number, previousMet: boolean[]): boolean {
  const needed = confirmations - 1;
  return previousMet.length >= needed && previousMet.slice(0, needed).every((met) => met);
}

/**
 * `on_change` (docs/api.md, "Values, evidence, confirmation and retraction"): every successful check whose values changed sends `values_changed`;
 * the first run is the baseline (no changes), and the condition alone never notifies.
 */
export function decideValuesChanged(
  changes: unknown[] | null,
  channels: NotificationType[],
): NotifyDecision {
  const changed = changes !== null && changes.length > 0;
  return {
    notify: changed,
    reason: changed ? 'values_changed' : 'values_unchanged',
    ...(changed ? { event: 'values_changed' as const } : {}),
    channels: changed ? channels : [],
    completes_task: false,
  };
}

export interface RetractionInput {
  notifyBehavior: NotifyBehavior;
  taskState: TaskState;
  /** The model's verdict of this check, before evidence (`claimed_met`). */
  claimedMet: boolean;
  /** `claimed_met` of the task's previous successful executions, newest first. */
  previousClaimed: boolean[];
  /** `evidence.confirmations` (default 1): not-met checks in a row that withdraw an alert. */
  confirmations: number;
  /** The state recorded at the last met-condition notification; null when none stands. */
  lastNotifiedState: Record<string, unknown> | null;
  /** The execution that notified, when known. */
  notifiedExecutionId: string | null;
  channels: NotificationType[];
}

/**
 * Retraction (docs/api.md, "Values, evidence, confirmation and retraction"): an `always` task whose last met-condition notification stands
 * withdraws it once `confirmations` successful checks in a row claimed the condition is not
 * met. A verdict the model still claims, only short of evidence, withdraws nothing.
 */
export function decideRetraction(input: RetractionInput): RetractionNotice | null {
  if (input.notifyBehavior !== 'always' || input.taskState === 'completed') return null;
  if (input.lastNotifiedState === null || input.claimedMet) return null;
  const needed = input.confirmations - 1;
  const previous = input.previousClaimed.slice(0, needed);
  if (previous.length < needed || previous.some((claimed) => claimed)) return null;
  return { retracted_execution_id: input.notifiedExecutionId, channels: input.channels };
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
