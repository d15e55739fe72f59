import type { ExecutionEntity } from '../../executions/execution.entity';
import type { SendRecordResponse, TaskNotificationResponse } from './dto/notification-responses';
import type { NotificationSendEntity } from './notification-send.entity';

/** The one place a send record becomes an API object. */
export function toSendRecordResponse(send: NotificationSendEntity): SendRecordResponse {
  return {
    id: send.id,
    user_id: send.userId,
    task_id: send.taskId,
    execution_id: send.executionId,
    recipient: send.recipient,
    notification_type: send.notificationType,
    event: send.event,
    status: send.status,
    error_message: send.errorMessage,
    created_at: send.createdAt.toISOString(),
  };
}

/** A met-condition execution as an element of a task's notification history. */
export function toTaskNotificationResponse(
  execution: ExecutionEntity,
  taskName: string,
): TaskNotificationResponse {
  return {
    id: execution.id,
    task_id: execution.taskId,
    task_name: taskName,
    status: 'success',
    condition_met: true,
    answer: execution.answer ?? '',
    reasoning: execution.reasoning ?? '',
    grounding_sources: execution.groundingSources ?? [],
    created_at: execution.createdAt.toISOString(),
  };
}
