import { CHECK_RETRY_LIMIT } from '../checks/check.queue';
import { ProviderNotConfiguredError } from '../../search/search-provider.registry';
import { ProviderError } from '../../search/search-provider';
import { BudgetReachedError, CheckError, CheckErrorCode } from './check-errors';
import { retriesCheck } from './check-retry';

describe('retriesCheck', () => {
  it('should retry when the provider may answer later and the job is under the retry limit', () => {
    expect(retriesCheck(new ProviderError('HTTP 503', true), 0)).toBe(true);
    expect(retriesCheck(new ProviderError('HTTP 503', true), CHECK_RETRY_LIMIT - 1)).toBe(true);
  });

  it('should retry when the budget could not be read', () => {
    const unread = new CheckError(
      'The monthly budget could not be checked',
      CheckErrorCode.BUDGET_UNAVAILABLE,
    );
    expect(retriesCheck(unread, 0)).toBe(true);
  });

  it('should stop retrying when the job reached the retry limit', () => {
    expect(retriesCheck(new ProviderError('HTTP 503', true), CHECK_RETRY_LIMIT)).toBe(false);
  });

  it('should fail at once when the error is a programming error without a code', () => {
    expect(
      retriesCheck(new TypeError("Cannot read properties of undefined (reading 'x')"), 0),
    ).toBe(false);
    expect(retriesCheck(new Error('unexpected'), 0)).toBe(false);
  });

  it('should fail at once when the error is named like a retryable one but carries no code', () => {
    const impostor = new Error('HTTP 503');
    impostor.name = 'ProviderError';
    expect(retriesCheck(impostor, 0)).toBe(false);
  });

  it('should fail at once when the provider refused, none is configured or the budget is reached', () => {
    expect(retriesCheck(new ProviderError('HTTP 400'), 0)).toBe(false);
    expect(retriesCheck(new ProviderNotConfiguredError(), 0)).toBe(false);
    expect(retriesCheck(new BudgetReachedError(5), 0)).toBe(false);
  });
});
