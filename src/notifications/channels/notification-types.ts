/**
 * The words of notifications that every part of the service shares: a leaf file, importing
 * nothing, so entities, channels and decisions can all use it. A channel's type
 * (`NotificationType`) comes from the registry that lists the channels (channel-registry.ts).
 */

/** The events a config may subscribe to (`events`, default all of them). */
export const NOTIFICATION_EVENTS = [
  'condition_met',
  'check_failing',
  'check_recovered',
  'values_changed',
  'condition_retracted',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** What a queued delivery carries: an event, or a reminder of a standing alert. */
export type DeliveryEvent = NotificationEvent | 'reminder';

/** What one message says happened: an event, or a test send. */
export type MessageEvent = NotificationEvent | 'test';

/**
 * What a send record was about: an event, a test send, a reminder of a standing alert, or a
 * digest (docs/attention.md).
 */
export const SEND_EVENTS = [...NOTIFICATION_EVENTS, 'test', 'reminder', 'digest'] as const;
export type SendEvent = (typeof SEND_EVENTS)[number];

/**
 * How a send record ended; `held` waits (quiet hours, a cooldown, a digest) and is updated when
 * its delivery goes out; `skipped` was not sent (a paused config, an alert folded or made stale).
 */
export const SEND_STATUSES = ['success', 'failed', 'held', 'skipped'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/**
 * How a config's events go out: one by one as they happen, or gathered into the owner's digest
 * (docs/attention.md, "Digests").
 */
export const DELIVERY_MODES = ['instant', 'digest'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** What every channel config holds. */
export interface NotificationConfigBase {
  /** The channel's type (channels/channel-registry.ts lists them). */
  type: string;
  /** Absent: every event (docs/api.md). */
  events?: NotificationEvent[];
  /**
   * Set when the config paused itself after deliveries in a row failed (docs/attention.md,
   * "Channels that pause themselves"); saving the config or resuming it clears them.
   */
  paused_at?: string;
  pause_reason?: string;
  /** Absent: `instant`. Stored only when the request gave it. */
  delivery?: DeliveryMode;
}

/** Whether a config wants an event (no `events` means all of them). */
export function subscribesTo(config: NotificationConfigBase, event: NotificationEvent): boolean {
  return config.events === undefined || config.events.includes(event);
}
