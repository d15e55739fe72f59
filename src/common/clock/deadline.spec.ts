import { withDeadline } from './deadline';

describe('withDeadline', () => {
  const settleAfter = <T>(ms: number, value: T) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

  it("should answer the work's value when it settles in time", async () => {
    await expect(withDeadline(settleAfter(5, 'done'), 1_000, () => 'late')).resolves.toBe('done');
  });

  it("should answer the work's error when it fails in time", async () => {
    await expect(
      withDeadline(Promise.reject(new Error('refused')), 1_000, () => 'late'),
    ).rejects.toThrow('refused');
  });

  it("should answer the timeout's value, or its error, when the work is late", async () => {
    await expect(withDeadline(settleAfter(1_000, 'done'), 10, () => 'late')).resolves.toBe('late');
    await expect(
      withDeadline(settleAfter(1_000, 'done'), 10, () => {
        throw new Error('timed out');
      }),
    ).rejects.toThrow('timed out');
  });

  it('should leave no timer behind once the work settles', async () => {
    jest.useFakeTimers();
    try {
      await withDeadline(Promise.resolve('done'), 60_000, () => 'late');
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
