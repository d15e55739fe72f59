import type { Type } from '@nestjs/common';
import type { LogSecrets } from '../../common/logging/log-redaction';
import type { ConfigSlice } from '../../config/config-slice';
import type { EnvVariable } from '../../config/env-variable';
import type { AttemptOutcome } from '../delivery/attempt-outcome';
import type { ConcurrencyLimit } from '../delivery/concurrency-limit';
import type { DigestContent } from '../content/digest-content';
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

/** One attempt of one digest (docs/attention.md, "Digests") through one channel. */
export interface OutgoingDigest extends DigestContent {
  owner: ChannelOwner;
  /** The same for every attempt of one digest (Message-ID, `webhook-id`). */
  digestId: string;
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

  /**
   * Where the config's messages arrive within its type: its address, URL or chat, whichever of
   * the owner's tasks the config belongs to (docs/attention.md, "Held deliveries keep their
   * order"). The registry prefixes the type (`destination`).
   */
  address(config: C): string;

  /**
   * What one digest gathers (docs/attention.md, "Digests"): the events of one `destination`
   * across the owner's tasks, or those of one `config` only (a webhook signs with its own
   * config's secret).
   */
  readonly digestsGather: 'destination' | 'config';

  /** Renders and sends one attempt; never throws (whatever goes wrong is the outcome). */
  deliver(config: C, notification: OutgoingNotification): Promise<AttemptOutcome>;

  /**
   * Renders and sends one attempt of a digest as one message, within the channel's limits;
   * never throws.
   */
  deliverDigest(config: C, digest: OutgoingDigest): Promise<AttemptOutcome>;

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
 * What a person fills in for one field of a config: the console's form shows it, and the API
 * document's schema of the config follows from it (docs/extending.md).
 */
export interface ChannelField {
  /** Its name in the config (`bot_token`). */
  readonly name: string;
  /** The form's label: "Bot token". */
  readonly label: string;
  /**
   * The kind of value: `email`, `url` and `text` are strings the form shows, `password` a string
   * it hides, `choice` one of `choices`, `headers` HTTP header names and values (an object in the
   * config).
   */
  readonly input: 'email' | 'url' | 'text' | 'password' | 'choice' | 'headers';
  /** The values of a `choice`. */
  readonly choices?: readonly string[];
  /** May be left out. */
  readonly optional?: boolean;
  /** What a config left without it holds; the form starts with it. */
  readonly default?: string;
  /** One sentence the form shows under the field. */
  readonly hint?: string;
}

/** A secret the service makes for a config and shows its owner (a webhook's signing secret). */
export interface GeneratedSecret {
  readonly name: string;
  readonly label: string;
}

/**
 * One channel, described once (docs/extending.md): its type and label, its class, the fields a
 * person fills in, the secret it makes, its own variables with their descriptions, and what of it
 * the log must never show. The registry lists the definitions; the channel types, the config
 * union, its validation, the API document, the console's form and the log's redaction follow it.
 */
export interface ChannelDefinition<C extends NotificationConfigBase = NotificationConfigBase> {
  readonly type: C['type'];
  /** As the console names it: "Telegram". */
  readonly label: string;
  readonly channel: Type<NotificationChannel<C>>;
  /** The fields of its config besides `type` and `events`, in the form's order. */
  readonly fields: readonly ChannelField[];
  readonly generatedSecret?: GeneratedSecret;
  /**
   * The fields of its config that hold a credential (a token, headers), shown to the owner only
   * and never stored a second time: an `Idempotency-Key`'s kept answer holds null for each, and
   * for `generatedSecret` (docs/api.md, "Idempotency-Key").
   */
  readonly credentials?: readonly string[];
  /** Its own configuration slice, when it has variables (`SMTP_URL`, `TELEGRAM_API_BASE_URL`). */
  readonly config?: ConfigSlice<unknown>;
  /** The variables `config` reads, with their descriptions and defaults. */
  readonly variables?: readonly EnvVariable[];
  /** The names of its config's secret fields and the shapes of its secrets in text. */
  readonly secrets?: LogSecrets;
}

export function defineChannel<C extends NotificationConfigBase>(
  definition: ChannelDefinition<C>,
): ChannelDefinition<C> {
  return definition;
}
