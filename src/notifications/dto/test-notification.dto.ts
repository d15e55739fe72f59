import { ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalEnum } from '../../common/validation/fields';
import { NOTIFICATION_TYPES, type NotificationType } from '../notification-types';
import type { SendStatus } from '../notification-send.entity';

/** `POST /api/v1/tasks/{id}/notifications/test` (contract section 5). */
export class TestNotificationDto {
  @ApiPropertyOptional({ enum: NOTIFICATION_TYPES, description: 'Only this config; default: all' })
  @OptionalEnum(NOTIFICATION_TYPES)
  type?: NotificationType;
}

export interface TestNotificationResponse {
  results: Array<{
    notification_type: NotificationType;
    status: SendStatus;
    error_message: string | null;
  }>;
}
