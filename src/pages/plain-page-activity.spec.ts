import { PlainPageActivity, QUIET_MS } from './plain-page-activity';

describe('PlainPageActivity', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Whether `wait` has resolved once the timers have run to now. */
  async function settled(wait: Promise<void>): Promise<boolean> {
    let done = false;
    void wait.then(() => (done = true));
    await jest.advanceTimersByTimeAsync(0);
    return done;
  }

  /** A plain page under way until the test ends it. */
  function underWay(activity: PlainPageActivity): () => Promise<void> {
    let end!: () => void;
    const page = activity.during(() => new Promise<void>((resolve) => (end = resolve)));
    return () => {
      end();
      return page;
    };
  }

  it('should be quiet once the waiter has seen QUIET_MS without a plain page', async () => {
    const activity = new PlainPageActivity();
    const wait = activity.quiet(Date.now(), Date.now() + 60_000);
    await jest.advanceTimersByTimeAsync(QUIET_MS - 1);
    expect(await settled(wait)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(wait)).toBe(true);
  });

  it('should be quiet at once for a waiter that has seen QUIET_MS without one already', async () => {
    const activity = new PlainPageActivity();
    await underWay(activity)();
    await jest.advanceTimersByTimeAsync(QUIET_MS);
    const since = Date.now() - QUIET_MS;
    expect(await settled(activity.quiet(since, Date.now() + 60_000))).toBe(true);
  });

  it('should be quiet QUIET_MS after the last plain page under way ended, not before', async () => {
    const activity = new PlainPageActivity();
    const first = underWay(activity);
    const second = underWay(activity);
    const wait = activity.quiet(Date.now(), Date.now() + 60_000);
    await jest.advanceTimersByTimeAsync(5_000);
    await first();
    await jest.advanceTimersByTimeAsync(QUIET_MS);
    expect(await settled(wait)).toBe(false);
    await second();
    await jest.advanceTimersByTimeAsync(QUIET_MS - 1);
    expect(await settled(wait)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(wait)).toBe(true);
  });

  it('should count a pause shorter than QUIET_MS as still busy', async () => {
    const activity = new PlainPageActivity();
    await underWay(activity)();
    const wait = activity.quiet(Date.now(), Date.now() + 60_000);
    await jest.advanceTimersByTimeAsync(QUIET_MS / 2);
    const next = underWay(activity);
    await jest.advanceTimersByTimeAsync(QUIET_MS);
    expect(await settled(wait)).toBe(false);
    await next();
    await jest.advanceTimersByTimeAsync(QUIET_MS);
    expect(await settled(wait)).toBe(true);
  });

  it('should end the wait at its bound while plain pages never pause', async () => {
    const activity = new PlainPageActivity();
    const end = underWay(activity);
    const wait = activity.quiet(Date.now(), Date.now() + 3_500);
    await jest.advanceTimersByTimeAsync(3_499);
    expect(await settled(wait)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(wait)).toBe(true);
    await end();
  });

  it('should end a plain page that fails as one that answers', async () => {
    const activity = new PlainPageActivity();
    await expect(activity.during(() => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    const wait = activity.quiet(Date.now(), Date.now() + 60_000);
    await jest.advanceTimersByTimeAsync(QUIET_MS);
    expect(await settled(wait)).toBe(true);
  });
});
