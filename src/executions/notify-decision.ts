import type { NotificationType } from '../notifications/notification-send.entity';
import type { NotifyBehavior, TaskState } from '../tasks/task.entity';

export interface NotifyDecision {
  notify: boolean;
  /** Why: condition_not_met, condition_met, state_unchanged, task_completed, check_failed */
  reason: string;
  channels: NotificationType[];
  /** true when the task completes with this execution (`once` and a met condition) */
  completes_task: boolean;
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
 * Decides whether an execution notifies (contract section 2, notify_behavior):
 * `once` notifies on the first met condition and completes the task; `always` notifies when the
 * reported state differs from the one recorded at the last notification; a completed task never
 * notifies again (state rule 3).
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
