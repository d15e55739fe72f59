import { KeyedLimiter } from './keyed-limiter';

function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('KeyedLimiter', () => {
  it('should run at most the limit per key at once and start the rest in arrival order', async () => {
    const limiter = new KeyedLimiter(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((entry, index) =>
      limiter.run('a.example', async () => {
        started.push(index);
        await entry.promise;
        return index;
      }),
    );
    const other = limiter.run('b.example', () => Promise.resolve('b'));
    expect(await other).toBe('b');
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1].open();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates.forEach((entry) => entry.open());
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(await limiter.run('a.example', () => Promise.resolve('free again'))).toBe('free again');
  });

  it('should let a task give up waiting at its time and keep the line for the others', async () => {
    jest.useFakeTimers();
    try {
      const limiter = new KeyedLimiter(1);
      const first = gate();
      const running = limiter.run('a', () => first.promise.then(() => 'first'));
      const late = limiter.run('a', () => Promise.resolve('ran'), {
        at: Date.now() + 1000,
        answer: () => 'gave up',
      });
      const patient = limiter.run('a', () => Promise.resolve('patient'));
      await jest.advanceTimersByTimeAsync(1000);
      expect(await late).toBe('gave up');
      first.open();
      expect(await running).toBe('first');
      expect(await patient).toBe('patient');
      expect(await limiter.run('a', () => Promise.resolve('free again'))).toBe('free again');
    } finally {
      jest.useRealTimers();
    }
  });

  it('should free the slot when the work fails', async () => {
    const limiter = new KeyedLimiter(1);
    await expect(limiter.run('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await limiter.run('a', () => Promise.resolve(1))).toBe(1);
  });
});
