import { MailerModule, type MailerOptions } from '@nestjs-modules/mailer';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ExecutionEntity } from '../executions/execution.entity';
import { TaskEntity } from '../tasks/task.entity';
import { CHANNEL_PROVIDERS, NotificationChannelRegistry } from './channels/channel-registry';
import { DeliveryAttemptRunner } from './delivery-attempt.runner';
import { DeliveryOutcomeRecorder } from './delivery-outcome.recorder';
import { DeliveryRecoveryRepository } from './delivery-recovery.repository';
import { DeliveryRecoverySweeper } from './delivery-recovery.sweeper';
import { DeliveryWorkerService } from './delivery-worker.service';
import { EmailVerificationController } from './email-verification/email-verification.controller';
import { EmailVerificationEntity } from './email-verification/email-verification.entity';
import { EmailVerificationService } from './email-verification/email-verification.service';
import { HttpDeliveryService } from './http/http-delivery.service';
import { NotificationConfigValidator } from './notification-config.validator';
import { NotificationDeliveryEntity } from './notification-delivery.entity';
import { NotificationDeliveryRepository } from './notification-delivery.repository';
import { NotificationDeliveryService } from './notification-delivery.service';
import { NotificationSendEntity } from './notification-send.entity';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { TestNotificationService } from './test-notification.service';

/** SMTP_URL plus timeouts that keep one attempt well inside the delivery job's expiry. */
function mailerOptions(config: AppConfig): MailerOptions {
  return {
    // Without SMTP_URL nothing is ever handed to the transport (the email channel records the
    // attempt as failed), but the mailer module insists on one.
    transport: config.smtpUrl
      ? {
          url: config.smtpUrl,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        }
      : { jsonTransport: true },
  };
}

@Module({
  imports: [
    TypeOrmModule.forFeature([
      NotificationSendEntity,
      NotificationDeliveryEntity,
      ExecutionEntity,
      TaskEntity,
      EmailVerificationEntity,
    ]),
    MailerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: mailerOptions }),
  ],
  controllers: [NotificationsController, EmailVerificationController],
  providers: [
    HttpDeliveryService,
    EmailVerificationService,
    ...CHANNEL_PROVIDERS,
    NotificationChannelRegistry,
    NotificationConfigValidator,
    NotificationsService,
    NotificationDeliveryRepository,
    DeliveryAttemptRunner,
    DeliveryOutcomeRecorder,
    NotificationDeliveryService,
    TestNotificationService,
    DeliveryWorkerService,
    DeliveryRecoveryRepository,
    DeliveryRecoverySweeper,
  ],
  exports: [NotificationConfigValidator, NotificationDeliveryService, NotificationChannelRegistry],
})
export class NotificationsModule {}
