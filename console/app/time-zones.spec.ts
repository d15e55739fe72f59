import { sameTimeZone, timeZones } from './time-zones';

describe('sameTimeZone', () => {
  it('should match two names of one zone when one is a link to the other', () => {
    expect(sameTimeZone('Asia/Kathmandu', 'Asia/Katmandu')).toBe(true);
    expect(sameTimeZone('europe/paris', 'Europe/Paris')).toBe(true);
  });

  it('should tell zones apart when they differ or a name is no zone', () => {
    expect(sameTimeZone('Asia/Kathmandu', 'Asia/Kolkata')).toBe(false);
    expect(sameTimeZone('Mars/Olympus', 'Mars/Phobos')).toBe(false);
    expect(sameTimeZone('Mars/Olympus', 'Mars/Olympus')).toBe(true);
  });
});

describe('timeZones', () => {
  it('should offer UTC with the names the runtime knows', () => {
    expect(timeZones()).toContain('UTC');
    expect(timeZones()).toContain('Europe/Paris');
  });
});
