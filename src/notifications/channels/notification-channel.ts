import type { Type } from '@nestjs/common';
import type { ConfigSlice } from '../../config/config-slice';
import type { AttemptOutcome } from '../delivery/attempt-outcome';
import type { ConcurrencyLimit } from '../delivery/concurrency-limit';
import type { NotificationContent } from '../content/notification-content';
import type { NotificationConfigBase } from './notification-types';

/** The task owner a config is validated or delivered for. */
export interface ChannelOwner {
  id: string;
  /** The account email when the identity provider vouched for it, else null. */
  verifiedEmail: string | null;
}

/** The owner as channels see them: the account email counts only when it is verified. */
export function channelOwner(user: {
  id: string;
  email: string | null;
  emailVerified: boolean;
}): ChannelOwner {
  return { id: user.id, verifiedEmail: user.emailVerified ? user.email : null };
}

/** One attempt of one notification through one channel. */
export interface OutgoingNotification {
  owner: ChannelOwner;
  content: NotificationContent;
  /** The same for every attempt of one delivery (Message-ID, `webhook-id`). */
  deliveryId: string;
  webhookId: string;
  attemptedAt: Date;
}

/**
 * One kind of notification channel: an adapter behind one registration. What every channel shares (the durable queue, retries, the SSRF
 * guard, send records) lives outside; a channel knows its config and its app's wire format.
 * Each channel folder exports one `defineChannel(...)`; channels/channel-registry.ts lists them.
 */
export interface NotificationChannel<C extends NotificationConfigBase = NotificationConfigBase> {
  readonly type: C['type'];

  /**
   * Checks one element of a request's `notifications` (already known to be an object of this
   * type, `events` handled by the caller) and returns it as stored; `previous` is the stored
   * config of this type, if any. Throws `BadRequestException('Invalid notification: ...')`.
   */
  validate(
    entry: Record<string, unknown>,
    previous: C | undefined,
    owner: ChannelOwner,
  ): Promise<C>;

  /** The config as the owner's own fork stores it (a fork of another user's task keeps none). */
  copyForOwnFork(config: C): C;

  /** The `recipient` of send records: no secrets (docs/api.md). */
  maskedRecipient(config: C): string;

  /** Renders and sends one attempt; never throws (whatever goes wrong is the outcome). */
  deliver(config: C, notification: OutgoingNotification): Promise<AttemptOutcome>;

  /**
   * Set by channels whose attempt is claimed (committed as `sending`) before it is sent and
   * sent inside one of these slots: so two runs of one job at once send one message (email).
   * Other channels are not claimed, which saves a write per attempt.
   */
  readonly claimedSlots?: ConcurrencyLimit;
}

/** `https://hooks.slack.com/****`: a URL's origin, and `/****` when it has a path or query. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = (parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search !== '';
    return hidden ? `${parsed.origin}/****` : parsed.origin;
  } catch {
    return '****';
  }
}

/**
 * One channel, described once (STYLE.md, "Extension points"): its type, its class, the fields its
 * config adds (for the API document) and its own variables. The registry lists the definitions;
 * the channel types, the config union, its validation and the API document follow it.
 */
export interface ChannelDefinition<C extends NotificationConfigBase = NotificationConfigBase> {
  readonly type: C['type'];
  readonly channel: Type<NotificationChannel<C>>;
  /** The fields of its config besides `type` and `events`, as the API document lists them. */
  readonly fields: string;
  /** Its own variables (`SMTP_URL`, `TELEGRAM_API_BASE_URL`), when it has any. */
  readonly config?: ConfigSlice<unknown>;
}

export function defineChannel<C extends NotificationConfigBase>(
  definition: ChannelDefinition<C>,
): ChannelDefinition<C> {
  return definition;
}
