import type { DeliveryLogFields } from '../../common/logging/log-context';
import type { ChannelOwner } from '../channels/notification-channel';
import type { DeliveryAttempt } from './delivery-job';
import type { NotificationConfig } from '../channels/channel-registry';
import type { NotificationContent } from '../content/notification-content';
import type { DeliveryState } from './notification-delivery.entity';
import type { SendStatus } from '../channels/notification-types';
import type { DeliveryWrite, SendRecordWrite } from './notification-delivery.repository';

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
