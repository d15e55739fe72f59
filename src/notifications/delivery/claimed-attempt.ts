import type { DeliveryLogFields } from '../../common/logging/log-context';
import type { ChannelOwner } from '../channels/notification-channel';
import type { DeliveryAttempt } from './delivery-job';
import type { NotificationConfig } from '../channels/channel-registry';
import type { NotificationContent } from '../content/notification-content';
import type { DeliveryState } from './notification-delivery.entity';
import type { SendStatus } from '../channels/notification-types';
import type {
  AttemptContextRow,
  DeliveryWrite,
  SendRecordWrite,
} from './notification-delivery.repository';

/** An attempt that goes out (or is settled without sending), with all it needs. */
export interface ClaimedAttempt extends DeliveryAttempt {
  userId: string;
  owner: ChannelOwner;
  recipient: string;
  /** Null when the channel is no longer configured on the task. */
  config: NotificationConfig | null;
  content: NotificationContent;
  /** Deliveries in a row through this config that ended failed, before this one. */
  failuresInRow: number;
}

/** The delivery row an attempt leaves in `state`. */
export function deliveryWrite(
  claim: ClaimedAttempt,
  state: DeliveryState,
  jobId: string,
  lastError: string | null,
): DeliveryWrite {
  return {
    id: claim.deliveryId,
    executionId: claim.executionId,
    taskId: claim.taskId,
    channel: claim.channel,
    event: claim.event,
    attempt: claim.attempt,
    state,
    jobId,
    lastError,
  };
}

/** The send record of an attempt that ended `status` (or waits, `held`) at `attemptedAt`. */
export function sendRecordOf(
  claim: ClaimedAttempt,
  status: SendStatus,
  errorMessage: string | null,
  attemptedAt: Date,
): SendRecordWrite {
  return {
    deliveryId: claim.deliveryId,
    userId: claim.userId,
    taskId: claim.taskId,
    executionId: claim.executionId,
    recipient: claim.recipient,
    notificationType: claim.channel,
    event: claim.event,
    status,
    errorMessage,
    attempt: claim.attempt,
    attemptedAt,
  };
}

/** What every log line of this delivery carries. */
export function deliveryLogFields(claim: ClaimedAttempt): DeliveryLogFields {
  return { taskId: claim.taskId, executionId: claim.executionId, deliveryId: claim.deliveryId };
}

/**
 * Nothing is sent for an inactive user's task (docs/api.md, "Admin"). Deactivation cancels the
 * user's deliveries itself; this covers a job that meets an inactive user any other way.
 */
export const CANCELLED_INACTIVE_USER = 'Cancelled: the account is not active';

/** What a notification says, from the attempt's execution and task. */
export function contentOf(
  attempt: Pick<DeliveryAttempt, 'event' | 'repeat'>,
  context: AttemptContextRow,
): NotificationContent {
  const completedAt = new Date(context.completed_at ?? context.created_at);
  return {
    // A reminder says what its alert said (docs/attention.md, "Reminders").
    event: attempt.event === 'reminder' ? 'condition_met' : attempt.event,
    repeat: attempt.repeat ?? null,
    folded: context.folded,
    task: {
      id: context.task_id,
      name: context.task_name,
      searchQuery: context.search_query,
      conditionDescription: context.condition_description,
    },
    execution: {
      id: context.execution_id,
      status: context.status === 'failed' ? 'failed' : 'success',
      conditionMet: context.condition_met ?? (attempt.event === 'condition_met' ? true : null),
      claimedMet: context.claimed_met,
      evidence: context.evidence,
      values: context.output_values,
      changes: context.value_changes,
      answer: context.answer ?? '',
      reasoning: context.reasoning ?? '',
      errorMessage: context.error_message,
      groundingSources: context.grounding_sources ?? [],
      pageResults: context.page_results,
      verdictExecutionId: context.verdict_execution_id,
      completedAt,
    },
    consecutiveFailures: context.consecutive_failures ?? 0,
    retractedExecutionId: context.retracted_execution_id,
    occurredAt: completedAt,
  };
}
