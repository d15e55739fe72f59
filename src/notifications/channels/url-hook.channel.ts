import type { AttemptOutcome } from '../delivery/attempt-outcome';
import type { HttpDeliveryService } from './http-delivery.service';
import type { DigestContent } from '../content/digest-content';
import type { NotificationContent } from '../content/notification-content';
import type { NotificationConfigBase } from './notification-types';
import {
  maskUrl,
  type NotificationChannel,
  type OutgoingDigest,
  type OutgoingNotification,
} from './notification-channel';

/** A config that is one secret hook URL (Slack and Discord incoming webhooks). */
export interface UrlHookConfig extends NotificationConfigBase {
  url: string;
}

/**
 * What Slack and Discord share: the config is a hook URL (a secret: whoever has it can post),
 * checked by the SSRF guard, and each attempt POSTs the app's JSON message to it.
 */
export abstract class UrlHookChannel<C extends UrlHookConfig> implements NotificationChannel<C> {
  abstract readonly type: C['type'];
  readonly digestsGather = 'destination';

  protected constructor(private readonly http: HttpDeliveryService) {}

  /** The app's JSON message for this notification. */
  protected abstract render(content: NotificationContent): unknown;

  /** The app's JSON message for a digest, within its limits. */
  protected abstract renderDigest(digest: DigestContent): unknown;

  async validate(entry: Record<string, unknown>): Promise<C> {
    const url = await this.http.checkConfigUrl(entry.url, `a ${this.type} notification`);
    return { type: this.type, url } as C;
  }

  copyForOwnFork(config: C): C {
    return { ...config };
  }

  maskedRecipient(config: C): string {
    return maskUrl(config.url);
  }

  address(config: C): string {
    return config.url;
  }

  deliver(config: C, notification: OutgoingNotification): Promise<AttemptOutcome> {
    return this.post(config, this.render(notification.content));
  }

  deliverDigest(config: C, digest: OutgoingDigest): Promise<AttemptOutcome> {
    return this.post(config, this.renderDigest(digest));
  }

  private post(config: C, message: unknown): Promise<AttemptOutcome> {
    return this.http.send({
      url: config.url,
      method: 'POST',
      headers: {},
      contentType: 'application/json',
      body: JSON.stringify(message),
      guarded: true,
    });
  }
}
