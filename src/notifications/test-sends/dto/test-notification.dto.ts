import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalEnum } from '../../../common/validation/fields';
import { NOTIFICATION_TYPES, type NotificationType } from '../../channels/channel-registry';
import type { SendStatus } from '../../channels/notification-types';

/** `POST /api/v1/tasks/{id}/notifications/test` (docs/api.md). */
export class TestNotificationDto {
  @ApiPropertyOptional({ enum: NOTIFICATION_TYPES, description: 'Only this config; default: all' })
  @OptionalEnum(NOTIFICATION_TYPES)
  type?: NotificationType;
}

export class TestSendResult {
  @ApiProperty({ enum: NOTIFICATION_TYPES })
  notification_type: NotificationType;

  @ApiProperty({ enum: ['success', 'failed'] })
  status: SendStatus;

  @ApiProperty({ type: String, nullable: true })
  error_message: string | null;
}

export class TestNotificationResponse {
  @ApiProperty({ type: [TestSendResult], description: 'One per config tried' })
  results: TestSendResult[];
}
