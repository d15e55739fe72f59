import { failedAttempt } from './attempt-outcome';
import { decideRetry } from './delivery-retry';
import { outcomeOfStatus } from '../channels/http-delivery.service';

describe('decideRetry', () => {
  const schedule = [5_000, 300_000, 1_800_000];
  const noJitter = () => 0.5;

  it('should deliver when the receiver answers 2xx', () => {
    for (const status of [200, 201, 204, 299]) {
      expect(decideRetry(outcomeOfStatus(status, undefined), 1, schedule, noJitter)).toEqual({
        state: 'delivered',
      });
    }
  });

  it('should wait for Retry-After when the receiver answers 429 with it', () => {
    expect(decideRetry(outcomeOfStatus(429, '120'), 1, schedule, noJitter)).toEqual({
      state: 'retry_scheduled',
      delayMs: 120_000,
    });
  });

  it('should follow the schedule when a 429 has no usable Retry-After', () => {
    expect(decideRetry(outcomeOfStatus(429, 'soon'), 2, schedule, noJitter)).toEqual({
      state: 'retry_scheduled',
      delayMs: 300_000,
    });
  });

  it('should not retry after the schedule runs out when a 429 has Retry-After', () => {
    expect(decideRetry(outcomeOfStatus(429, '1'), 4, schedule, noJitter)).toEqual({
      state: 'failed',
    });
  });

  it('should stop when the receiver answers 400, 401, 403, 404 or 410', () => {
    for (const status of [400, 401, 403, 404, 410]) {
      expect(decideRetry(outcomeOfStatus(status, undefined), 1, schedule, noJitter)).toEqual({
        state: 'failed',
      });
    }
  });

  it('should retry on the schedule when the receiver answers another status', () => {
    for (const status of [301, 408, 422, 500, 503]) {
      expect(decideRetry(outcomeOfStatus(status, undefined), 1, schedule, noJitter)).toEqual({
        state: 'retry_scheduled',
        delayMs: 5_000,
      });
    }
  });

  it('should retry each step of the schedule and then fail when a network error repeats', () => {
    const networkError = failedAttempt('connect ECONNREFUSED 127.0.0.1:9', true);
    const decisions = [1, 2, 3, 4].map((attempt) =>
      decideRetry(networkError, attempt, schedule, noJitter),
    );
    expect(decisions).toEqual([
      { state: 'retry_scheduled', delayMs: 5_000 },
      { state: 'retry_scheduled', delayMs: 300_000 },
      { state: 'retry_scheduled', delayMs: 1_800_000 },
      { state: 'failed' },
    ]);
  });

  it('should spread the scheduled delay by ±10% when jitter applies', () => {
    const networkError = failedAttempt('socket hang up', true);
    expect(decideRetry(networkError, 1, schedule, () => 0)).toEqual({
      state: 'retry_scheduled',
      delayMs: 4_500,
    });
  });
});
