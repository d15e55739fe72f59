import { nextPagePace, type PagePace } from './page-pace';

const MINUTE = 60_000;
const bounds = { minIntervalMs: 15 * MINUTE, pageCheckIntervalMs: 60 * MINUTE };

/** The intervals (in minutes) after each check, `true` for a check in which a page changed. */
function intervalsAfter(checks: boolean[]): number[] {
  let pace: PagePace | null = null;
  return checks.map((changed) => {
    pace = nextPagePace(pace, changed, bounds);
    return pace.intervalMs / MINUTE;
  });
}

describe('nextPagePace', () => {
  it('should start at PAGE_CHECK_INTERVAL after the first check, whatever it found', () => {
    expect(nextPagePace(null, false, bounds)).toEqual({ intervalMs: 60 * MINUTE, quietChecks: 0 });
    expect(nextPagePace(null, true, bounds)).toEqual({ intervalMs: 60 * MINUTE, quietChecks: 0 });
  });

  it('should halve after each check with a changed page, never below SCHEDULER_MIN_INTERVAL', () => {
    expect(intervalsAfter([false, true, true, true])).toEqual([60, 30, 15, 15]);
  });

  it('should double after every third quiet check in a row, never above PAGE_CHECK_INTERVAL', () => {
    expect(
      intervalsAfter([false, true, true, false, false, false, false, false, false, false, false]),
    ).toEqual([60, 30, 15, 15, 15, 30, 30, 30, 60, 60, 60]);
  });

  it('should start the quiet count again after a change', () => {
    expect(intervalsAfter([false, true, false, false, true, false, false, false])).toEqual([
      60, 30, 30, 30, 15, 15, 15, 30,
    ]);
  });

  it('should keep to SCHEDULER_MIN_INTERVAL when it is longer than PAGE_CHECK_INTERVAL', () => {
    const slow = { minIntervalMs: 2 * 60 * MINUTE, pageCheckIntervalMs: 60 * MINUTE };
    const first = nextPagePace(null, false, slow);
    expect(first.intervalMs).toBe(2 * 60 * MINUTE);
    expect(nextPagePace(first, true, slow).intervalMs).toBe(2 * 60 * MINUTE);
  });

  it('should keep whole milliseconds when an odd interval halves', () => {
    const pace = nextPagePace({ intervalMs: 45_001, quietChecks: 0 }, true, {
      minIntervalMs: 1_000,
      pageCheckIntervalMs: 60_000,
    });
    expect(pace.intervalMs).toBe(22_500);
  });
});
