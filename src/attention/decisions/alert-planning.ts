import type { NotifyBehavior } from '../../search/search.types';
import type { TaskState } from '../../tasks/task-state';
import { alertPolicyTimes, type AlertPolicy } from '../alert-policy';
import { isCooldownEvent, type AttentionEvent } from './attention-events';
import { decideCooldown } from './cooldown-decision';

export interface AlertPlanInput {
  policy: AlertPolicy | null;
  notifyBehavior: NotifyBehavior;
  /** The task's state after the check. */
  taskState: TaskState;
  /** The task's `alertSentAt` before the check. */
  alertSentAt: Date | null;
  /** The standing alert's execution before and after the check. */
  alertBefore: string | null;
  alertAfter: string | null;
  /** The events the check's deliveries carry. */
  events: AttentionEvent[];
  now: Date;
}

export interface AlertPlan {
  /** The task's `alertSentAt` after the check. */
  alertSentAt: Date | null;
  /** Set when the check's `condition_met` and `values_changed` deliveries wait for a cooldown. */
  cooldownUntil: Date | null;
  /** When the first reminder of a new standing alert is due (null: no reminders). */
  firstReminderAt: Date | null;
}

/**
 * What a recorded check means for its task's attention (docs/attention.md): whether its alerts
 * wait for the task's cooldown, and whether a new standing alert gets reminders.
 */
export function planAlert(input: AlertPlanInput): AlertPlan {
  const { cooldownMs, repeatEveryMs } = alertPolicyTimes(input.policy);
  const alerting = input.events.find(isCooldownEvent);
  const cooldown = alerting
    ? decideCooldown({
        event: alerting,
        cooldownMs,
        alertSentAt: input.alertSentAt,
        now: input.now,
      })
    : { wait: false as const, alertSentAt: input.alertSentAt };
  const newAlert = input.alertAfter !== null && input.alertAfter !== input.alertBefore;
  const reminds =
    newAlert &&
    repeatEveryMs !== null &&
    input.notifyBehavior === 'always' &&
    input.taskState === 'active';
  return {
    alertSentAt: cooldown.alertSentAt,
    cooldownUntil: cooldown.wait ? cooldown.until : null,
    firstReminderAt: reminds ? new Date(input.now.getTime() + repeatEveryMs) : null,
  };
}
