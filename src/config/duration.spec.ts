import { formatDuration, parseDuration, parseDurationList } from './duration';

describe('parseDuration', () => {
  it('should read seconds, minutes, hours and days when the format is api', () => {
    expect(parseDuration('30s', 'api')).toBe(30_000);
    expect(parseDuration('15m', 'api')).toBe(900_000);
    expect(parseDuration('2h', 'api')).toBe(7_200_000);
    expect(parseDuration('1d', 'api')).toBe(86_400_000);
  });

  it.each(['0m', '-5m', '1.5h', '15', '500ms', '15M', ' 15m', '15 m', '1h30m', '015m', '', 'm'])(
    'should refuse %p when the format is api',
    (text) => {
      expect(parseDuration(text, 'api')).toBeNull();
    },
  );

  it('should keep the lenient forms when the format is environment', () => {
    expect(parseDuration(' 1.5h ')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('15')).toBe(15_000);
    expect(parseDuration('2H')).toBe(7_200_000);
  });
});

describe('formatDuration', () => {
  it('should write the largest unit that divides the value when one does', () => {
    expect(formatDuration(60_000)).toBe('1m');
    expect(formatDuration(900_000)).toBe('15m');
    expect(formatDuration(90_000)).toBe('90s');
    expect(formatDuration(2_592_000_000)).toBe('30d');
    expect(formatDuration(1_500)).toBe('1500ms');
  });
});

describe('parseDurationList', () => {
  it('should read every element when each is a duration', () => {
    expect(parseDurationList('5s, 5m,30m')).toEqual([5_000, 300_000, 1_800_000]);
    expect(parseDurationList('5s,soon')).toBeNull();
  });
});
