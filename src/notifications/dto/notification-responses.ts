import type { GroundingSource } from '../../search/search.types';
import type { SendStatus } from '../notification-send.entity';
import type { NotificationType, SendEvent } from '../notification-types';

/** A Notification send record (interface document): exactly these fields. */
export interface SendRecordResponse {
  id: string;
  user_id: string;
  task_id: string;
  /** Null for a test send. */
  execution_id: string | null;
  recipient: string;
  notification_type: NotificationType;
  event: SendEvent;
  status: SendStatus;
  error_message: string | null;
  created_at: string;
}

export interface SendHistoryResponse {
  sends: SendRecordResponse[];
  total: number;
}

/** An element of `GET /api/v1/tasks/{task_id}/notifications`: an execution that met its condition. */
export interface TaskNotificationResponse {
  id: string;
  task_id: string;
  task_name: string;
  status: 'success';
  condition_met: true;
  answer: string;
  reasoning: string;
  grounding_sources: GroundingSource[];
  created_at: string;
}
