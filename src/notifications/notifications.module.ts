import { ChannelHealth } from './channel-health/channel-health';
import { ChannelHealthRepository } from './channel-health/channel-health.repository';
import { ChannelPausedNoticeWorker } from './channel-health/channel-paused-notice';
import { AttentionGate } from './gate/attention-gate';
import { DeliveryHoldRepository } from './gate/delivery-hold.repository';
import { ReminderRepository } from './gate/reminder.repository';
import { MailerModule, type MailerOptions } from '@nestjs-modules/mailer';
import { Module } from '@nestjs/common';
import { ExecutionsModule } from '../executions/executions.module';
import { UsersModule } from '../users/users.module';
import { CHANNEL_PROVIDERS, NotificationChannelRegistry } from './channels/channel-registry';
import { emailConfig, type EmailConfig } from './channels/email/email.config';
import { DeliveryAttemptRunner } from './delivery/delivery-attempt.runner';
import { DeliveryOutcomeRecorder } from './delivery/delivery-outcome.recorder';
import { DeliveryPlanner } from './delivery/delivery-planner';
import { RetrySchedule } from './delivery/retry-schedule';
import { DeliveryRecoveryRepository } from './delivery/delivery-recovery.repository';
import { DeliveryRecoverySweeper } from './delivery/delivery-recovery.sweeper';
import { DigestCapture } from './digests/digest-capture.service';
import { DigestAttemptRunner } from './digests/digest-attempt.runner';
import { DigestOutcomeRecorder } from './digests/digest-outcome.recorder';
import { DigestGatherer } from './digests/digest.gatherer';
import { DigestRepository } from './digests/digest.repository';
import { DigestService } from './digests/digest.service';
import { EmailVerificationController } from './email-verification/email-verification.controller';
import { EmailVerificationRepository } from './email-verification/email-verification.repository';
import { EmailVerificationService } from './email-verification/email-verification.service';
import { VerificationCodeSweeper } from './email-verification/verification-code.sweeper';
import { HttpDeliveryService } from './channels/http-delivery.service';
import { NotificationConfigValidator } from './channels/notification-config.validator';
import { NotificationDeliveryRepository } from './delivery/notification-delivery.repository';
import { NotificationDeliveryService } from './delivery/notification-delivery.service';
import { NotificationSendRepository } from './history/notification-send.repository';
import { NotificationsController } from './notifications.controller';
import { NotificationHistoryService } from './history/notification-history.service';
import { TestNotificationService } from './test-sends/test-notification.service';

/** SMTP_URL plus timeouts that keep one attempt well inside the delivery job's expiry. */
function mailerOptions(config: EmailConfig): MailerOptions {
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
    ExecutionsModule,
    UsersModule,
    MailerModule.forRootAsync({ inject: [emailConfig.token], useFactory: mailerOptions }),
  ],
  controllers: [NotificationsController, EmailVerificationController],
  providers: [
    HttpDeliveryService,
    EmailVerificationService,
    EmailVerificationRepository,
    VerificationCodeSweeper,
    ...CHANNEL_PROVIDERS,
    NotificationChannelRegistry,
    NotificationConfigValidator,
    NotificationHistoryService,
    NotificationDeliveryRepository,
    NotificationSendRepository,
    RetrySchedule,
    DeliveryPlanner,
    DeliveryAttemptRunner,
    DeliveryOutcomeRecorder,
    NotificationDeliveryService,
    TestNotificationService,
    DeliveryRecoveryRepository,
    DeliveryRecoverySweeper,
    AttentionGate,
    DeliveryHoldRepository,
    ChannelHealth,
    ChannelPausedNoticeWorker,
    ChannelHealthRepository,
    ReminderRepository,
    DigestRepository,
    DigestCapture,
    DigestGatherer,
    DigestAttemptRunner,
    DigestOutcomeRecorder,
    DigestService,
  ],
  exports: [NotificationConfigValidator, NotificationDeliveryService, NotificationChannelRegistry],
})
export class NotificationsModule {}
