import { quietHoursEnd } from '../local-time';
import type { Preferences } from '../preferences';
import type { AttentionEvent } from './attention-events';

/** Events whose deliveries quiet hours hold (docs/attention.md, "Quiet hours"). */
const HELD_EVENTS: ReadonlySet<AttentionEvent> = new Set([
  'condition_met',
  'values_changed',
  'condition_retracted',
  'reminder',
]);

export type QuietHoursDecision = { hold: false } | { hold: true; until: Date };

/**
 * Whether a delivery falling due at `now` is held, and until when: deliveries of the held events
 * wait for the end of the owner's quiet hours; failures, recoveries, tests and digests go at once.
 */
export function decideQuietHours(
  event: AttentionEvent,
  now: Date,
  preferences: Preferences,
): QuietHoursDecision {
  if (!HELD_EVENTS.has(event)) return { hold: false };
  const until = quietHoursEnd(now, preferences);
  return until === null ? { hold: false } : { hold: true, until };
}
