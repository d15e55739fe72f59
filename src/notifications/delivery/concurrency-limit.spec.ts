import { ConcurrencyLimit } from './concurrency-limit';

describe('ConcurrencyLimit', () => {
  it('should never run more than the limit at once when many tasks arrive together', async () => {
    const limit = new ConcurrencyLimit(3);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        limit.run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push(index);
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(order).toHaveLength(10);
  });

  it('should free the slot when a task fails', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(() => Promise.resolve(42))).resolves.toBe(42);
  });
});
