import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { NOTIFICATION_SCHEMAS } from '../../notifications/channels/channel-schemas';

/**
 * A task's `notifications`, in requests and answers alike: each element one channel's config,
 * told apart by its `type` (docs/api.md). The schemas come from the channel registry, and the
 * document gets their components where it is built (`openApiDocument`). Validation is done by
 * `NotificationConfigValidator` (it needs DNS for the SSRF guard and gives 400
 * `Invalid notification: ...` messages, not 422s).
 */
export function NotificationsProperty(options: {
  required: boolean;
  description: string;
}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: 'array',
      required: options.required,
      items: NOTIFICATION_SCHEMAS.item,
      description: options.description,
    }),
  );
}
