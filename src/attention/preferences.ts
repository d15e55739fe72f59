import { BadRequestException } from '@nestjs/common';
import { IANAZone } from 'luxon';

/** Quiet hours in the user's time zone: `end` exclusive, may cross midnight. */
export interface QuietHours {
  start: string;
  end: string;
}

export const DIGEST_FREQUENCIES = ['daily', 'weekly'] as const;

/** When digests go out, in the user's time zone (`weekday` 1 = Monday, used when weekly). */
export interface DigestSchedule {
  frequency: (typeof DIGEST_FREQUENCIES)[number];
  at: string;
  weekday: number;
}

/** A user's preferences (docs/attention.md, "Preferences"). */
export interface Preferences {
  time_zone: string;
  quiet_hours: QuietHours | null;
  digest: DigestSchedule;
}

export const DEFAULT_PREFERENCES: Preferences = {
  time_zone: 'UTC',
  quiet_hours: null,
  digest: { frequency: 'daily', at: '08:00', weekday: 1 },
};

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid preferences: ${reason}`);
}

/**
 * Applies a `PUT` of preferences to the stored ones: each object the body names replaces the
 * stored one whole (its absent fields take their defaults), the others stay. Throws
 * `BadRequestException('Invalid preferences: <reason>')`.
 */
export function applyPreferencesUpdate(body: unknown, stored: Preferences): Preferences {
  const entry = objectOf(body, 'the body');
  allowOnly(entry, Object.keys(DEFAULT_PREFERENCES), 'the body');
  return {
    time_zone: entry.time_zone === undefined ? stored.time_zone : timeZone(entry.time_zone),
    quiet_hours:
      entry.quiet_hours === undefined ? stored.quiet_hours : quietHours(entry.quiet_hours),
    digest: entry.digest === undefined ? stored.digest : digest(entry.digest),
  };
}

/** Minutes after local midnight of an `HH:MM` that validation accepted. */
export function minuteOfDay(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

/**
 * The IANA name the user sent (docs/attention.md, "Preferences"): a name the runtime files under
 * another one stays as sent (`Asia/Kathmandu`, not ICU's `Asia/Katmandu`); a name that differs from
 * the runtime's own only in capitals takes its capitals (`europe/paris` → `Europe/Paris`).
 */
function timeZone(value: unknown): string {
  if (typeof value !== 'string' || value === '' || !IANAZone.isValidZone(value)) {
    throw invalid('time_zone must be an IANA time zone name such as Europe/Paris');
  }
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
}

function quietHours(value: unknown): QuietHours | null {
  if (value === null) return null;
  const entry = objectOf(value, 'quiet_hours');
  allowOnly(entry, ['start', 'end'], 'quiet_hours');
  const start = timeOfDay(entry.start, 'quiet_hours.start');
  const end = timeOfDay(entry.end, 'quiet_hours.end');
  if (start === end) throw invalid('quiet_hours.start and quiet_hours.end must differ');
  return { start, end };
}

function digest(value: unknown): DigestSchedule {
  const entry = objectOf(value, 'digest');
  allowOnly(entry, ['frequency', 'at', 'weekday'], 'digest');
  const defaults = DEFAULT_PREFERENCES.digest;
  const frequency = entry.frequency ?? defaults.frequency;
  if (!(DIGEST_FREQUENCIES as readonly unknown[]).includes(frequency)) {
    throw invalid("digest.frequency must be 'daily' or 'weekly'");
  }
  const weekday = entry.weekday ?? defaults.weekday;
  if (!Number.isInteger(weekday) || (weekday as number) < 1 || (weekday as number) > 7) {
    throw invalid('digest.weekday must be an integer from 1 (Monday) to 7 (Sunday)');
  }
  return {
    frequency: frequency as DigestSchedule['frequency'],
    at: entry.at === undefined ? defaults.at : timeOfDay(entry.at, 'digest.at'),
    weekday: weekday as number,
  };
}

function timeOfDay(value: unknown, name: string): string {
  if (typeof value !== 'string' || !TIME_OF_DAY.test(value)) {
    throw invalid(`${name} must be a time of day HH:MM from 00:00 to 23:59`);
  }
  return value;
}

function objectOf(value: unknown, name: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`${name} must be an object`);
  }
  return value as Record<string, unknown>;
}

function allowOnly(entry: Record<string, unknown>, fields: string[], name: string): void {
  const unknown = Object.keys(entry).find((key) => !fields.includes(key));
  if (unknown !== undefined) throw invalid(`unknown field '${unknown}' in ${name}`);
}
