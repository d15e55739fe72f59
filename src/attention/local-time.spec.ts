import { digestPeriod, inQuietHours, nextDigestAt, quietHoursEnd } from './local-time';
import { DEFAULT_PREFERENCES, type Preferences } from './preferences';

const at = (iso: string) => new Date(iso);

function preferences(overrides: Partial<Preferences>): Preferences {
  return { ...DEFAULT_PREFERENCES, ...overrides };
}

const paris = preferences({
  time_zone: 'Europe/Paris',
  quiet_hours: { start: '22:00', end: '07:00' },
});

describe('inQuietHours', () => {
  const night = preferences({ quiet_hours: { start: '22:00', end: '07:00' } });

  it('should hold both sides of midnight when the quiet hours cross it', () => {
    expect(inQuietHours(at('2026-11-26T22:00:00Z'), night)).toBe(true);
    expect(inQuietHours(at('2026-11-26T23:59:00Z'), night)).toBe(true);
    expect(inQuietHours(at('2026-11-27T00:00:00Z'), night)).toBe(true);
    expect(inQuietHours(at('2026-11-27T06:59:59Z'), night)).toBe(true);
  });

  it('should leave the hours outside when the end is reached or the start not yet', () => {
    expect(inQuietHours(at('2026-11-27T07:00:00Z'), night)).toBe(false);
    expect(inQuietHours(at('2026-11-26T21:59:59Z'), night)).toBe(false);
    expect(inQuietHours(at('2026-11-26T12:00:00Z'), night)).toBe(false);
  });

  it('should hold only the span when the quiet hours stay within one day', () => {
    const day = preferences({ quiet_hours: { start: '09:00', end: '17:00' } });
    expect(inQuietHours(at('2026-11-26T08:59:00Z'), day)).toBe(false);
    expect(inQuietHours(at('2026-11-26T09:00:00Z'), day)).toBe(true);
    expect(inQuietHours(at('2026-11-26T17:00:00Z'), day)).toBe(false);
  });

  it('should never hold when there are no quiet hours', () => {
    expect(inQuietHours(at('2026-11-26T23:00:00Z'), DEFAULT_PREFERENCES)).toBe(false);
  });

  it('should read the local clock when the zone changes its offset (Europe/Paris, 2026-03-29)', () => {
    // 06:59 CEST = 04:59Z, 07:00 CEST = 05:00Z (on the day before, 07:00 CET = 06:00Z).
    expect(inQuietHours(at('2026-03-29T04:59:00Z'), paris)).toBe(true);
    expect(inQuietHours(at('2026-03-29T05:00:00Z'), paris)).toBe(false);
    expect(inQuietHours(at('2026-03-28T05:59:00Z'), paris)).toBe(true);
    expect(inQuietHours(at('2026-03-28T06:00:00Z'), paris)).toBe(false);
  });
});

describe('quietHoursEnd', () => {
  it('should give the next local end when the quiet hours cross midnight', () => {
    const night = preferences({ quiet_hours: { start: '22:00', end: '07:00' } });
    expect(quietHoursEnd(at('2026-11-26T23:00:00Z'), night)).toEqual(at('2026-11-27T07:00:00Z'));
    expect(quietHoursEnd(at('2026-11-27T03:00:00Z'), night)).toEqual(at('2026-11-27T07:00:00Z'));
  });

  it('should give null when now is outside the quiet hours', () => {
    expect(quietHoursEnd(at('2026-11-26T12:00:00Z'), paris)).toBeNull();
  });

  it('should end at 07:00 local when the night holds the spring-forward (2026-03-29)', () => {
    // 22:30 CET on the 28th; the night ends at 07:00 CEST = 05:00Z.
    expect(quietHoursEnd(at('2026-03-28T21:30:00Z'), paris)).toEqual(at('2026-03-29T05:00:00Z'));
  });

  it('should end at 07:00 local when the night holds the fall-back (2026-10-25)', () => {
    // 22:30 CEST on the 24th; the night ends at 07:00 CET = 06:00Z.
    expect(quietHoursEnd(at('2026-10-24T20:30:00Z'), paris)).toEqual(at('2026-10-25T06:00:00Z'));
  });

  it('should end at the jump when the spring-forward skips the end (02:30 on 2026-03-29)', () => {
    const early = preferences({
      time_zone: 'Europe/Paris',
      quiet_hours: { start: '22:00', end: '02:30' },
    });
    // 02:00 CET jumps to 03:00 CEST at 01:00Z: 03:00 is the first local time past 02:30.
    expect(quietHoursEnd(at('2026-03-28T23:00:00Z'), early)).toEqual(at('2026-03-29T01:00:00Z'));
    expect(inQuietHours(at('2026-03-29T01:00:00Z'), early)).toBe(false);
  });

  it('should end at each 02:30 when the fall-back repeats it (2026-10-25)', () => {
    const early = preferences({
      time_zone: 'Europe/Paris',
      quiet_hours: { start: '22:00', end: '02:30' },
    });
    // 02:15 CEST (00:15Z) ends at 02:30 CEST; the repeated 02:15 CET (01:15Z) at 02:30 CET.
    expect(quietHoursEnd(at('2026-10-25T00:15:00Z'), early)).toEqual(at('2026-10-25T00:30:00Z'));
    expect(quietHoursEnd(at('2026-10-25T01:15:00Z'), early)).toEqual(at('2026-10-25T01:30:00Z'));
  });
});

describe('nextDigestAt', () => {
  it('should give 08:00 local on both sides of the spring-forward (Europe/Paris, 2026-03-29)', () => {
    expect(nextDigestAt(at('2026-03-28T06:00:00Z'), paris)).toEqual(at('2026-03-28T07:00:00Z'));
    expect(nextDigestAt(at('2026-03-28T07:00:00Z'), paris)).toEqual(at('2026-03-29T06:00:00Z'));
  });

  it('should give 08:00 local on both sides of the fall-back (Europe/Paris, 2026-10-25)', () => {
    expect(nextDigestAt(at('2026-10-24T05:00:00Z'), paris)).toEqual(at('2026-10-24T06:00:00Z'));
    expect(nextDigestAt(at('2026-10-24T06:00:00Z'), paris)).toEqual(at('2026-10-25T07:00:00Z'));
  });

  it('should give the chosen weekday when the digest is weekly', () => {
    const weekly = preferences({ digest: { frequency: 'weekly', at: '08:00', weekday: 1 } });
    // 2026-11-26 is a Thursday; the next Monday is 2026-11-30.
    expect(nextDigestAt(at('2026-11-26T12:00:00Z'), weekly)).toEqual(at('2026-11-30T08:00:00Z'));
    expect(nextDigestAt(at('2026-11-30T08:00:00Z'), weekly)).toEqual(at('2026-12-07T08:00:00Z'));
  });

  it('should take the first jump-free time when the spring-forward skips the digest time', () => {
    const early = preferences({
      time_zone: 'Europe/Paris',
      digest: { frequency: 'daily', at: '02:30', weekday: 1 },
    });
    expect(nextDigestAt(at('2026-03-28T12:00:00Z'), early)).toEqual(at('2026-03-29T01:00:00Z'));
  });

  it('should take the first occurrence when the fall-back repeats the digest time', () => {
    const early = preferences({
      time_zone: 'Europe/Paris',
      digest: { frequency: 'daily', at: '02:30', weekday: 1 },
    });
    expect(nextDigestAt(at('2026-10-24T12:00:00Z'), early)).toEqual(at('2026-10-25T00:30:00Z'));
    expect(nextDigestAt(at('2026-10-25T00:30:00Z'), early)).toEqual(at('2026-10-26T01:30:00Z'));
  });
});

describe('digestPeriod', () => {
  it('should span the 23 hours between two 08:00 when the spring-forward falls between', () => {
    expect(digestPeriod(at('2026-03-29T06:00:20Z'), paris)).toEqual({
      period_start: at('2026-03-28T07:00:00Z'),
      period_end: at('2026-03-29T06:00:00Z'),
    });
  });

  it('should span the 25 hours between two 08:00 when the fall-back falls between', () => {
    expect(digestPeriod(at('2026-10-25T07:00:00Z'), paris)).toEqual({
      period_start: at('2026-10-24T06:00:00Z'),
      period_end: at('2026-10-25T07:00:00Z'),
    });
  });

  it('should end at the latest scheduled time when now is between two', () => {
    const weekly = preferences({ digest: { frequency: 'weekly', at: '18:30', weekday: 5 } });
    // Fridays: 2026-11-20 and 2026-11-27.
    expect(digestPeriod(at('2026-11-26T12:00:00Z'), weekly)).toEqual({
      period_start: at('2026-11-13T18:30:00Z'),
      period_end: at('2026-11-20T18:30:00Z'),
    });
  });
});

describe('a zone under either of its names', () => {
  it('should give the same quiet hours and digests when a zone goes by a link or its target', () => {
    const schedule = {
      quiet_hours: { start: '22:00', end: '07:00' },
      digest: { frequency: 'daily' as const, at: '08:00', weekday: 1 },
    };
    const link = preferences({ ...schedule, time_zone: 'Asia/Kathmandu' });
    const target = preferences({ ...schedule, time_zone: 'Asia/Katmandu' });
    const now = at('2026-11-26T17:00:00Z');
    // 22:45 in Nepal (UTC+05:45): quiet until 07:00 local, 01:15 UTC.
    expect(quietHoursEnd(now, link)).toEqual(at('2026-11-27T01:15:00Z'));
    expect(quietHoursEnd(now, target)).toEqual(quietHoursEnd(now, link));
    expect(nextDigestAt(now, target)).toEqual(nextDigestAt(now, link));
    expect(digestPeriod(now, target)).toEqual(digestPeriod(now, link));
  });
});
