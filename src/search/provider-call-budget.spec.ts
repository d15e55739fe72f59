import { worstCaseRequestMs } from './provider-call-budget';

describe('worstCaseRequestMs', () => {
  it('should count every attempt to its timeout and the longest wait between attempts', () => {
    expect(
      worstCaseRequestMs({
        maxRetries: 3,
        backoffBaseMs: 500,
        backoffMaxMs: 8_000,
        retryAfterCapMs: 30_000,
        timeoutMs: 60_000,
      }),
    ).toBe(4 * 60_000 + 3 * 30_000);
  });

  it('should use the backoff ceiling when it is longer than the Retry-After cap', () => {
    expect(
      worstCaseRequestMs({
        maxRetries: 1,
        backoffBaseMs: 500,
        backoffMaxMs: 20_000,
        retryAfterCapMs: 5_000,
        timeoutMs: 10_000,
      }),
    ).toBe(2 * 10_000 + 20_000);
  });
});
