import { ApiKeyEntity } from '../auth/api-key.entity';
import { RateLimitCounterEntity } from '../common/rate-limit/rate-limit-counter.entity';
import { ExecutionEntity } from '../executions/execution.entity';
import { WorkerInstanceEntity } from '../scheduler/worker-instance.entity';
import { NotificationDeliveryEntity } from '../notifications/delivery/notification-delivery.entity';
import { EmailVerificationEntity } from '../notifications/email-verification/email-verification.entity';
import { NotificationSendEntity } from '../notifications/history/notification-send.entity';
import { WaitlistEntryEntity } from '../public/waitlist-entry.entity';
import { TaskEntity } from '../tasks/task.entity';
import { UsageEventEntity } from '../usage/usage-event.entity';
import { UserEntity } from '../users/user.entity';

/** Every entity of the schema; migrations must describe exactly these (test/platform/migration-drift.e2e-spec.ts). */
export const ENTITIES = [
  UserEntity,
  ApiKeyEntity,
  TaskEntity,
  ExecutionEntity,
  NotificationSendEntity,
  NotificationDeliveryEntity,
  RateLimitCounterEntity,
  WaitlistEntryEntity,
  WorkerInstanceEntity,
  UsageEventEntity,
  EmailVerificationEntity,
];
