export type { NotificationType } from './channel-registry';

/** The events a config may subscribe to (`events`, default all of them). */
export const NOTIFICATION_EVENTS = ['condition_met', 'check_failing', 'check_recovered'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** What a send record was about: an event, or a test send. */
export const SEND_EVENTS = [...NOTIFICATION_EVENTS, 'test'] as const;
export type SendEvent = (typeof SEND_EVENTS)[number];

/** What every channel config holds. */
export interface NotificationConfigBase {
  /** The channel's type (channels/channel-registry.ts lists them). */
  type: string;
  /** Absent: every event (docs/api.md). */
  events?: NotificationEvent[];
}

/** Whether a config wants an event (no `events` means all of them). */
export function subscribesTo(config: NotificationConfigBase, event: NotificationEvent): boolean {
  return config.events === undefined || config.events.includes(event);
}
