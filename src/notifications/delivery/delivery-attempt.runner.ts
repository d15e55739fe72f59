import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { Clock } from '../../common/clock/clock';
import { failedAttempt, type AttemptOutcome } from './attempt-outcome';
import { NotificationChannelRegistry } from '../channels/channel-registry';
import type { ClaimedAttempt } from './claimed-attempt';

export const CHANNEL_REMOVED = 'The notification channel was removed from the task';

/** Makes one attempt through its channel. */
@Injectable()
export class DeliveryAttemptRunner {
  constructor(
    private readonly channels: NotificationChannelRegistry,
    @InjectPinoLogger(DeliveryAttemptRunner.name) private readonly logger: PinoLogger,
    private readonly clock: Clock,
  ) {}

  /**
   * The attempt's outcome and when it was made. Never throws: whatever goes wrong is the outcome
   * of the attempt.
   */
  async runAttempt(claim: ClaimedAttempt): Promise<{ outcome: AttemptOutcome; attemptedAt: Date }> {
    const attemptedAt = this.clock.now();
    return { outcome: await this.send(claim, attemptedAt), attemptedAt };
  }

  private async send(claim: ClaimedAttempt, attemptedAt: Date): Promise<AttemptOutcome> {
    const config = claim.config;
    if (!config) return failedAttempt(CHANNEL_REMOVED, false);
    try {
      return await this.channels.get(config.type).deliver(config, {
        owner: claim.owner,
        content: claim.content,
        deliveryId: claim.deliveryId,
        webhookId: claim.webhookId,
        attemptedAt,
      });
    } catch (error) {
      // The send record is the owner's to read: the error itself goes to the log only.
      this.logger.error({ err: error }, 'Delivery attempt failed unexpectedly');
      return failedAttempt('Unexpected error', true);
    }
  }
}
