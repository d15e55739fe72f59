import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import {
  NOTIFICATION_FIELDS,
  NOTIFICATION_TYPES,
  type NotificationType,
} from '../../notifications/channels/channel-registry';
import {
  NOTIFICATION_EVENTS,
  type NotificationEvent,
} from '../../notifications/channels/notification-types';

/**
 * One element of `notifications`: its `type` decides the other fields (docs/api.md). Types and
 * fields come from the channel registry. Validation is done by `NotificationConfigValidator` (it
 * needs DNS for the SSRF guard and gives 400 `Invalid notification: ...` messages, not 422s).
 */
export class NotificationConfigDto {
  @ApiProperty({ enum: NOTIFICATION_TYPES })
  type: NotificationType;

  @ApiPropertyOptional({
    enum: NOTIFICATION_EVENTS,
    isArray: true,
    description: 'Absent: every event',
  })
  events?: NotificationEvent[];
}

/**
 * A task's `notifications`, in requests and answers alike; the class that uses it names
 * `NotificationConfigDto` in `@ApiExtraModels`.
 */
export function NotificationsProperty(options: {
  required: boolean;
  description: string;
}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: 'array',
      required: options.required,
      items: {
        allOf: [{ $ref: getSchemaPath(NotificationConfigDto) }],
        additionalProperties: true,
        description: NOTIFICATION_FIELDS,
      },
      description: options.description,
    }),
  );
}
