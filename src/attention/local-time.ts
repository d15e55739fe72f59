import { DateTime, IANAZone } from 'luxon';
import { minuteOfDay, type Preferences } from './preferences';

/**
 * Local times in the user's time zone (docs/attention.md, "Local times"). Wall-clock rules:
 * a local time that a spring-forward skips is taken as the first local time after the jump; a
 * local time that a fall-back repeats happens twice, and a schedule (a digest) takes the first.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Looked back and ahead enough to find a weekly schedule from any instant. */
const SCHEDULE_SEARCH_DAYS = 8;

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface DigestPeriod {
  period_start: Date;
  period_end: Date;
}

/** Whether `now` falls in the quiet hours (start inclusive, end exclusive, across midnight). */
export function inQuietHours(now: Date, preferences: Preferences): boolean {
  const quiet = preferences.quiet_hours;
  if (quiet === null) return false;
  const local = DateTime.fromJSDate(now, { zone: preferences.time_zone });
  const minute = local.hour * 60 + local.minute;
  const start = minuteOfDay(quiet.start);
  const end = minuteOfDay(quiet.end);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** When the quiet hours that `now` falls in end (a held delivery may go), or null outside them. */
export function quietHoursEnd(now: Date, preferences: Preferences): Date | null {
  if (!inQuietHours(now, preferences)) return null;
  const end = minuteOfDay(preferences.quiet_hours!.end);
  const today = localDate(now, preferences.time_zone);
  for (let offset = 0; offset <= 2; offset++) {
    const next = occurrences(preferences.time_zone, addDays(today, offset), end).find(
      (instant) => instant > now.getTime(),
    );
    if (next !== undefined) return new Date(next);
  }
  throw new Error('Quiet hours never end');
}

/** The first scheduled digest time after `after`. */
export function nextDigestAt(after: Date, preferences: Preferences): Date {
  const today = localDate(after, preferences.time_zone);
  for (let offset = -1; offset <= SCHEDULE_SEARCH_DAYS; offset++) {
    const scheduled = scheduledOn(addDays(today, offset), preferences);
    if (scheduled !== null && scheduled > after.getTime()) return new Date(scheduled);
  }
  throw new Error('No digest scheduled within a week');
}

/**
 * The period of the latest digest due at or before `now`: `period_end` is its scheduled time and
 * `period_start` the scheduled time before it.
 */
export function digestPeriod(now: Date, preferences: Preferences): DigestPeriod {
  const end = latestDigestAt(now.getTime(), preferences);
  return {
    period_start: new Date(latestDigestAt(end - 1, preferences)),
    period_end: new Date(end),
  };
}

function latestDigestAt(atOrBefore: number, preferences: Preferences): number {
  const today = localDate(new Date(atOrBefore), preferences.time_zone);
  for (let offset = 1; offset >= -SCHEDULE_SEARCH_DAYS; offset--) {
    const scheduled = scheduledOn(addDays(today, offset), preferences);
    if (scheduled !== null && scheduled <= atOrBefore) return scheduled;
  }
  throw new Error('No digest scheduled within a week');
}

/** The digest time of one local date (the first occurrence), or null when none falls on it. */
function scheduledOn(date: LocalDate, preferences: Preferences): number | null {
  const { frequency, at, weekday } = preferences.digest;
  if (frequency === 'weekly' && isoWeekday(date) !== weekday) return null;
  return occurrences(preferences.time_zone, date, minuteOfDay(at))[0];
}

/**
 * The instants at which the local clock of `zone` reads `minute` on `date`, earliest first: one,
 * two in a fall-back's repeated hour, or, when a spring-forward skips it, the first local time
 * after the jump.
 */
function occurrences(zone: string, date: LocalDate, minute: number): number[] {
  const wall = Date.UTC(date.year, date.month - 1, date.day) + minute * MINUTE_MS;
  for (let skipped = 0; skipped <= 24 * 60; skipped++) {
    const found = exactOccurrences(IANAZone.create(zone), wall + skipped * MINUTE_MS);
    if (found.length > 0) return found;
  }
  throw new Error(`No local time ${minute} minutes after midnight in ${zone}`);
}

/** The instants whose local wall clock is `wall` (a local time written as if it were UTC). */
function exactOccurrences(zone: IANAZone, wall: number): number[] {
  const offsets = new Set([wall - DAY_MS, wall, wall + DAY_MS].map((at) => zone.offset(at)));
  const instants = [...offsets]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => zone.offset(instant) * MINUTE_MS === wall - instant);
  return [...new Set(instants)].sort((a, b) => a - b);
}

function localDate(instant: Date, zone: string): LocalDate {
  const { year, month, day } = DateTime.fromJSDate(instant, { zone });
  return { year, month, day };
}

function addDays(date: LocalDate, days: number): LocalDate {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
  };
}

/** 1 = Monday ... 7 = Sunday. */
function isoWeekday(date: LocalDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() || 7;
}
