import type { SendEvent } from '../../notifications/channels/notification-types';

/** What a send record may be about: an event, a test, a reminder or a digest. */
export type AttentionEvent = SendEvent;

/** The alerts a cooldown folds (docs/attention.md, "Cooldown"). */
export type CooldownEvent = 'condition_met' | 'values_changed';

export function isCooldownEvent(event: AttentionEvent): event is CooldownEvent {
  return event === 'condition_met' || event === 'values_changed';
}
