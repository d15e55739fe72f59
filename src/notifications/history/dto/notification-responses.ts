import { ApiProperty } from '@nestjs/swagger';
import { TimestampProperty, UuidProperty } from '../../../common/openapi/schema-properties';
import { GroundingSourceResponse } from '../../../executions/execution.mapper';
import { NOTIFICATION_TYPES, type NotificationType } from '../../channels/channel-registry';
import type { SendStatus } from '../../channels/notification-types';
import { SEND_EVENTS, SEND_STATUSES, type SendEvent } from '../../channels/notification-types';

/** A Notification send record (docs/api.md): exactly these fields. */
export class SendRecordResponse {
  @UuidProperty()
  id: string;

  @UuidProperty({ description: 'The task owner' })
  user_id: string;

  @UuidProperty()
  task_id: string;

  @UuidProperty({
    nullable: true,
    description: 'The execution that triggered the send; null for a test send',
  })
  execution_id: string | null;

  @ApiProperty({
    description:
      'Free of secrets: the email address; for URL channels the origin, then `/****` when the URL has a path or query; the Telegram chat_id',
  })
  recipient: string;

  @ApiProperty({ enum: NOTIFICATION_TYPES })
  notification_type: NotificationType;

  @ApiProperty({ enum: SEND_EVENTS })
  event: SendEvent;

  @ApiProperty({
    enum: SEND_STATUSES,
    description:
      'One record per attempt; `held` waits (quiet hours, a cooldown, a digest) and becomes the outcome when it goes out; `skipped` was not sent',
  })
  status: SendStatus;

  @ApiProperty({ type: String, nullable: true, description: 'Set when delivery failed' })
  error_message: string | null;

  @TimestampProperty({ description: 'When the attempt was made' })
  created_at: string;
}

export class SendHistoryResponse {
  @ApiProperty({ type: [SendRecordResponse] })
  sends: SendRecordResponse[];

  @ApiProperty({ type: 'integer', description: 'Records matching the filters, all pages' })
  total: number;
}

/** An element of `GET /api/v1/tasks/{task_id}/notifications`: an execution that met its condition. */
export class TaskNotificationResponse {
  @UuidProperty({ description: 'The execution' })
  id: string;

  @UuidProperty()
  task_id: string;

  @ApiProperty()
  task_name: string;

  @ApiProperty({ enum: ['success'] })
  status: 'success';

  @ApiProperty({ enum: [true] })
  condition_met: true;

  @ApiProperty()
  answer: string;

  @ApiProperty()
  reasoning: string;

  @ApiProperty({ type: [GroundingSourceResponse] })
  grounding_sources: GroundingSourceResponse[];

  @TimestampProperty()
  created_at: string;
}
