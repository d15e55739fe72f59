import type { Preferences } from '../preferences';
import type { AttentionEvent } from './attention-events';
import { decideQuietHours } from './quiet-hours-decision';

export interface DeliveryGateInput {
  event: AttentionEvent;
  /** The config's `pause_reason` when it paused itself. */
  pauseReason: string | null;
  /** For a reminder: whether it is still due (the alert stands, unacknowledged, ...). */
  reminderDue: boolean | null;
  /** The config gathers its events into digests. */
  digest: boolean;
  /** Set for an alert that waits for its task's cooldown to end then. */
  cooldownUntil: Date | null;
  preferences: Preferences;
  now: Date;
}

/**
 * What happens to a delivery when its job runs (docs/attention.md):
 * - `skip`: the config is paused; the delivery ends `skipped`;
 * - `drop`: a reminder no longer due; nothing is sent or recorded;
 * - `digest`: gathered into the next digest;
 * - `hold`: waits (a cooldown, quiet hours) and runs again at `until`;
 * - `release`: its cooldown has ended: the waiting alerts are folded before it may go;
 * - `send`: goes now.
 */
export type DeliveryGate =
  | { kind: 'skip'; reason: string }
  | { kind: 'drop' }
  | { kind: 'digest' }
  | { kind: 'hold'; reason: 'cooldown' | 'quiet_hours'; until: Date }
  | { kind: 'release' }
  | { kind: 'send' };

export function decideDeliveryGate(input: DeliveryGateInput): DeliveryGate {
  if (input.pauseReason !== null) return { kind: 'skip', reason: `Paused: ${input.pauseReason}` };
  if (input.reminderDue === false) return { kind: 'drop' };
  if (input.digest) return { kind: 'digest' };
  if (input.cooldownUntil !== null) {
    return input.cooldownUntil > input.now
      ? { kind: 'hold', reason: 'cooldown', until: input.cooldownUntil }
      : { kind: 'release' };
  }
  return decideQuietHoursGate(input.event, input.now, input.preferences);
}

/** After a release (or with no cooldown): held through quiet hours, or sent. */
export function decideQuietHoursGate(
  event: AttentionEvent,
  now: Date,
  preferences: Preferences,
): DeliveryGate {
  const quiet = decideQuietHours(event, now, preferences);
  return quiet.hold
    ? { kind: 'hold', reason: 'quiet_hours', until: quiet.until }
    : { kind: 'send' };
}
