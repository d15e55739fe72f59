import type { InstanceSignals } from '../database/database-signals';
import {
  PLAIN_PAGES_CHANNEL,
  PlainPageActivity,
  QUIET_MS,
  SIGNAL_EVERY_MS,
} from './plain-page-activity';
import { plainPageUnderWay } from '../../test/support/plain-page';

/** Instances' signals delivered at once to the other instances, as the database delivers them. */
class SignalBus {
  readonly sent: string[] = [];
  private readonly listeners: Array<{ from: number; listener: (payload: string) => void }> = [];

  /** The signals of one more instance. */
  instance(): InstanceSignals {
    const from = this.listeners.length;
    return {
      listen: (channel, listener) => {
        expect(channel).toBe(PLAIN_PAGES_CHANNEL);
        this.listeners.push({ from, listener });
      },
      send: (channel, payload) => {
        expect(channel).toBe(PLAIN_PAGES_CHANNEL);
        this.sent.push(payload);
        this.deliver(payload, from);
      },
    };
  }

  /** `payload` to every instance but `from`'s. */
  deliver(payload: string, from = -1): void {
    for (const each of this.listeners) if (each.from !== from) each.listener(payload);
  }
}

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
    await plainPageUnderWay(activity)();
    await jest.advanceTimersByTimeAsync(QUIET_MS);
    const since = Date.now() - QUIET_MS;
    expect(await settled(activity.quiet(since, Date.now() + 60_000))).toBe(true);
  });

  it('should be quiet QUIET_MS after the last plain page under way ended, not before', async () => {
    const activity = new PlainPageActivity();
    const first = plainPageUnderWay(activity);
    const second = plainPageUnderWay(activity);
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
    await plainPageUnderWay(activity)();
    const wait = activity.quiet(Date.now(), Date.now() + 60_000);
    await jest.advanceTimersByTimeAsync(QUIET_MS / 2);
    const next = plainPageUnderWay(activity);
    await jest.advanceTimersByTimeAsync(QUIET_MS);
    expect(await settled(wait)).toBe(false);
    await next();
    await jest.advanceTimersByTimeAsync(QUIET_MS);
    expect(await settled(wait)).toBe(true);
  });

  it('should end the wait at its bound while plain pages never pause', async () => {
    const activity = new PlainPageActivity();
    const end = plainPageUnderWay(activity);
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

  describe('with other instances', () => {
    it('should wait while another instance on this machine has a plain page under way', async () => {
      const bus = new SignalBus();
      const busy = new PlainPageActivity(bus.instance());
      const waiting = new PlainPageActivity(bus.instance());
      const end = plainPageUnderWay(busy);
      const wait = waiting.quiet(Date.now(), Date.now() + 60_000);
      await jest.advanceTimersByTimeAsync(10 * QUIET_MS);
      expect(await settled(wait)).toBe(false);
      await end();
      // The last signal goes at most SIGNAL_EVERY_MS after the page ended.
      await jest.advanceTimersByTimeAsync(QUIET_MS - 1);
      expect(await settled(wait)).toBe(false);
      await jest.advanceTimersByTimeAsync(SIGNAL_EVERY_MS + 1);
      expect(await settled(wait)).toBe(true);
    });

    it("should not wait for another machine's plain pages", async () => {
      const bus = new SignalBus();
      const waiting = new PlainPageActivity(bus.instance());
      const wait = waiting.quiet(Date.now(), Date.now() + 60_000);
      for (let tick = 0; tick < 8; tick++) {
        bus.deliver('another-machine');
        await jest.advanceTimersByTimeAsync(QUIET_MS / 4);
      }
      expect(await settled(wait)).toBe(true);
    });

    it('should tell the others at most every SIGNAL_EVERY_MS, and stop once quiet', async () => {
      const bus = new SignalBus();
      const busy = new PlainPageActivity(bus.instance());
      const end = plainPageUnderWay(busy);
      for (let page = 0; page < 100; page++) await plainPageUnderWay(busy)();
      expect(bus.sent).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(4 * SIGNAL_EVERY_MS);
      expect(bus.sent).toHaveLength(5);
      await end();
      await jest.advanceTimersByTimeAsync(10 * SIGNAL_EVERY_MS);
      expect(bus.sent).toHaveLength(6);
      expect(new Set(bus.sent).size).toBe(1);
    });
  });
});
