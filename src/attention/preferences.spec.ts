import { BadRequestException } from '@nestjs/common';
import { applyPreferencesUpdate, DEFAULT_PREFERENCES, minuteOfDay } from './preferences';

const stored = {
  time_zone: 'Europe/Paris',
  quiet_hours: { start: '22:00', end: '07:00' },
  digest: { frequency: 'weekly' as const, at: '09:30', weekday: 5 },
};

function refusal(body: unknown): string {
  try {
    applyPreferencesUpdate(body, stored);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).message;
  }
  throw new Error('expected a refusal');
}

describe('applyPreferencesUpdate', () => {
  it('should leave every stored object when the body names none', () => {
    expect(applyPreferencesUpdate({}, stored)).toEqual(stored);
  });

  it('should replace only the objects the body names when it names some', () => {
    expect(
      applyPreferencesUpdate({ quiet_hours: { start: '23:00', end: '06:30' } }, stored),
    ).toEqual({ ...stored, quiet_hours: { start: '23:00', end: '06:30' } });
    expect(applyPreferencesUpdate({ quiet_hours: null }, stored).quiet_hours).toBeNull();
  });

  it('should fill a named digest with the defaults when it omits fields', () => {
    expect(applyPreferencesUpdate({ digest: { at: '18:00' } }, stored).digest).toEqual({
      frequency: 'daily',
      at: '18:00',
      weekday: 1,
    });
  });

  it.each(['Asia/Kathmandu', 'Asia/Katmandu', 'Europe/Kyiv', 'Europe/Kiev', 'US/Eastern'])(
    'should keep %s as sent when the runtime files it under another name or not',
    (zone) => {
      expect(applyPreferencesUpdate({ time_zone: zone }, stored).time_zone).toBe(zone);
    },
  );

  it('should take the capitals of the zone name when only the case differs', () => {
    expect(applyPreferencesUpdate({ time_zone: 'america/new_york' }, stored).time_zone).toBe(
      'America/New_York',
    );
    expect(applyPreferencesUpdate({ time_zone: 'UTC' }, DEFAULT_PREFERENCES).time_zone).toBe('UTC');
  });

  it.each([
    [null, 'the body must be an object'],
    [{ theme: 'dark' }, "unknown field 'theme' in the body"],
    [
      { time_zone: 'Mars/Olympus' },
      'time_zone must be an IANA time zone name such as Europe/Paris',
    ],
    [{ time_zone: '+01:00' }, 'time_zone must be an IANA time zone name such as Europe/Paris'],
    [{ time_zone: null }, 'time_zone must be an IANA time zone name such as Europe/Paris'],
    [{ quiet_hours: '22:00-07:00' }, 'quiet_hours must be an object'],
    [
      { quiet_hours: { start: '22:00' } },
      'quiet_hours.end must be a time of day HH:MM from 00:00 to 23:59',
    ],
    [
      { quiet_hours: { start: '24:00', end: '07:00' } },
      'quiet_hours.start must be a time of day HH:MM from 00:00 to 23:59',
    ],
    [
      { quiet_hours: { start: '7:00', end: '08:00' } },
      'quiet_hours.start must be a time of day HH:MM from 00:00 to 23:59',
    ],
    [
      { quiet_hours: { start: '22:00', end: '22:00' } },
      'quiet_hours.start and quiet_hours.end must differ',
    ],
    [
      { quiet_hours: { start: '22:00', end: '07:00', days: 1 } },
      "unknown field 'days' in quiet_hours",
    ],
    [{ digest: null }, 'digest must be an object'],
    [{ digest: { frequency: 'hourly' } }, "digest.frequency must be 'daily' or 'weekly'"],
    [{ digest: { weekday: 0 } }, 'digest.weekday must be an integer from 1 (Monday) to 7 (Sunday)'],
    [{ digest: { weekday: 8 } }, 'digest.weekday must be an integer from 1 (Monday) to 7 (Sunday)'],
    [{ digest: { at: '8am' } }, 'digest.at must be a time of day HH:MM from 00:00 to 23:59'],
  ])('should refuse %p when it is invalid', (body, reason) => {
    expect(refusal(body)).toBe(`Invalid preferences: ${reason}`);
  });
});

describe('minuteOfDay', () => {
  it('should count minutes after midnight when given HH:MM', () => {
    expect(minuteOfDay('00:00')).toBe(0);
    expect(minuteOfDay('07:30')).toBe(450);
    expect(minuteOfDay('23:59')).toBe(1439);
  });
});
