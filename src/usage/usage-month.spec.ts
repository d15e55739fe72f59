import { MONTH_PATTERN, monthRange, startOfNextMonth } from './usage-month';

describe('usage months', () => {
  it('should give the first instant of the next UTC month when the date is mid-month', () => {
    expect(startOfNextMonth(new Date('2030-05-17T23:59:59.999Z'))).toEqual(
      new Date('2030-06-01T00:00:00.000Z'),
    );
  });

  it('should roll over the year when the date is in December', () => {
    expect(startOfNextMonth(new Date('2030-12-31T23:00:00Z'))).toEqual(
      new Date('2031-01-01T00:00:00.000Z'),
    );
  });

  it('should use the current UTC month when no month is given', () => {
    expect(monthRange(undefined, new Date('2030-03-01T00:30:00+02:00'))).toEqual({
      month: '2030-02',
      from: new Date('2030-02-01T00:00:00.000Z'),
      to: new Date('2030-03-01T00:00:00.000Z'),
    });
  });

  it('should cover the named month when one is given', () => {
    expect(monthRange('2029-12', new Date())).toEqual({
      month: '2029-12',
      from: new Date('2029-12-01T00:00:00.000Z'),
      to: new Date('2030-01-01T00:00:00.000Z'),
    });
  });

  it.each(['2030-13', '2030-00', '2030-1', '30-01', '2030-01-01', 'May'])(
    'should refuse %s when it is not YYYY-MM',
    (month) => {
      expect(MONTH_PATTERN.test(month)).toBe(false);
    },
  );
});
