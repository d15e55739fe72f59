import { alertPolicyTimes } from '../../attention/alert-policy';
import { decideReminder } from '../../attention/decisions/reminder-decision';
import type { ClaimedAttempt } from '../delivery/claimed-attempt';
import { reminderJob, type DeliveryJob } from '../delivery/delivery-job';
import type { AttemptContextRow } from '../delivery/notification-delivery.repository';

/*
 * Reminders at the gate (docs/attention.md, "Reminders"): whether a reminder's job still has one
 * to send, and the reminder after it.
 */

/** The next reminder of a reminder's alert, counting `repeatsSent` reminders before it. */
function reminderInput(claim: ClaimedAttempt, context: AttemptContextRow, repeatsSent: number) {
  const notifiedAt = context.alert_notified_at;
  const standing = context.alert_execution_id === claim.executionId && notifiedAt !== null;
  return decideReminder({
    notifyBehavior: context.notify_behavior,
    taskState: context.task_state,
    repeatEveryMs: alertPolicyTimes(context.alert_policy).repeatEveryMs,
    repeatMax: context.alert_policy?.repeat_max ?? 0,
    alert: standing
      ? {
          notifiedAt: new Date(notifiedAt),
          acknowledgedAt: context.alert_acknowledged_at,
          repeatsSent,
        }
      : null,
  });
}

/** Whether this reminder is still due: its alert stands unacknowledged on an active task. */
export function reminderDue(claim: ClaimedAttempt, context: AttemptContextRow): boolean {
  const repeat = claim.repeat ?? 1;
  const decision = reminderInput(claim, context, repeat - 1);
  return decision.remind && decision.repeat === repeat;
}

export function nextReminder(
  claim: ClaimedAttempt,
  context: AttemptContextRow,
): DeliveryJob | null {
  const decision = reminderInput(claim, context, claim.repeat ?? 1);
  if (!decision.remind) return null;
  return reminderJob(
    { executionId: claim.executionId, taskId: claim.taskId, channel: claim.channel },
    decision.repeat,
    decision.at,
  );
}
