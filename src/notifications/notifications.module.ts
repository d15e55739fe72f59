import { Module } from '@nestjs/common';
import { NotificationConfigValidator } from './notification-config.validator';

@Module({
  providers: [NotificationConfigValidator],
  exports: [NotificationConfigValidator],
})
export class NotificationsModule {}
