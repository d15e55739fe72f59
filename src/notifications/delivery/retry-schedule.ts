import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { InjectConfig } from '../../config/config-slice';
import { notificationsConfig, type NotificationsConfig } from '../notifications.config';
import type { AttemptOutcome } from './attempt-outcome';
import { decideRetry } from './delivery-retry';

/** What an attempt's outcome leads to: its state, and when its next attempt runs, if one does. */
export type ScheduledRetry =
  | { state: 'delivered' | 'failed'; startAfter: null }
  | { state: 'retry_scheduled'; startAfter: Date };

/**
 * The retry schedule of deliveries and digests alike (WEBHOOK_RETRY_SCHEDULE, a 429's
 * `Retry-After`), read on the service's clock.
 */
@Injectable()
export class RetrySchedule {
  constructor(
    @InjectConfig(notificationsConfig) private readonly config: NotificationsConfig,
    private readonly clock: Clock,
  ) {}

  /** Whether attempt `attempt` ends its delivery or digest, or when the next one runs. */
  after(outcome: AttemptOutcome, attempt: number): ScheduledRetry {
    const decision = decideRetry(outcome, attempt, this.config.webhookRetryScheduleMs);
    return decision.state === 'retry_scheduled'
      ? {
          state: 'retry_scheduled',
          startAfter: new Date(this.clock.now().getTime() + decision.delayMs),
        }
      : { state: decision.state, startAfter: null };
  }
}
