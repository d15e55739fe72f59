import type { NotifyBehavior } from '../../search/search.types';
import type { TaskState } from '../../tasks/task-state';

export interface ReminderInput {
  notifyBehavior: NotifyBehavior;
  /** null once the task is deleted. */
  taskState: TaskState | null;
  /** The policy's `repeat_every` (null: no reminders) and `repeat_max`. */
  repeatEveryMs: number | null;
  repeatMax: number;
  /** The standing alert: null once none stands (never notified, retracted, completed). */
  alert: {
    notifiedAt: Date;
    acknowledgedAt: Date | null;
    repeatsSent: number;
  } | null;
}

export type ReminderDecision =
  { remind: false; reason: string } | { remind: true; at: Date; repeat: number };

/**
 * The next reminder of a standing alert (docs/attention.md, "Reminders"): every `repeat_every`
 * after the notification, at most `repeat_max` times, while an `always` task stays active and its
 * alert stands unacknowledged. The times count from the notification, so a late reminder does not
 * push the next ones back.
 */
export function decideReminder(input: ReminderInput): ReminderDecision {
  const stop = (reason: string): ReminderDecision => ({ remind: false, reason });
  if (input.taskState === null) return stop('task_deleted');
  if (input.taskState !== 'active') return stop(`task_${input.taskState}`);
  if (input.notifyBehavior !== 'always' || input.repeatEveryMs === null)
    return stop('no_reminders');
  if (input.alert === null) return stop('no_standing_alert');
  if (input.alert.acknowledgedAt !== null) return stop('acknowledged');
  if (input.alert.repeatsSent >= input.repeatMax) return stop('repeat_max_reached');
  const repeat = input.alert.repeatsSent + 1;
  return {
    remind: true,
    at: new Date(input.alert.notifiedAt.getTime() + repeat * input.repeatEveryMs),
    repeat,
  };
}
