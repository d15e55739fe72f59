import type { DeliveryLogFields } from '../../common/logging/log-context';
import type { ChannelOwner } from '../channels/notification-channel';
import type { DeliveryAttempt } from './delivery-job';
import type { NotificationConfig } from '../channels/channel-registry';
import type { NotificationContent } from '../content/notification-content';
import type { DeliveryState } from './notification-delivery.entity';
import type { DeliveryWrite } from './notification-delivery.repository';

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

/** What every log line of this delivery carries. */
export function deliveryLogFields(claim: ClaimedAttempt): DeliveryLogFields {
  return { taskId: claim.taskId, executionId: claim.executionId, deliveryId: claim.deliveryId };
}
