import { errorCodeOf } from '../../common/errors/coded-error';
import { CHECK_RETRY_LIMIT } from '../checks/check.queue';
import { SearchErrorCode } from '../../search/search-error-code';
import { CheckErrorCode } from './check-errors';

/** Failures that may pass when the check runs again: a busy provider, a budget not read. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  SearchErrorCode.PROVIDER_UNAVAILABLE,
  CheckErrorCode.BUDGET_UNAVAILABLE,
]);

/**
 * Whether a failed check goes back to the queue (docs/api.md, "Executions and notifications"):
 * while its error's code is a retryable one and its job is under CHECK_RETRY_LIMIT. An error
 * without such a code, a refused call or one of the service's own (a TypeError), fails the check
 * at once.
 */
export function retriesCheck(error: Error, retryCount: number): boolean {
  const code = errorCodeOf(error);
  return code !== undefined && RETRYABLE_CODES.has(code) && retryCount < CHECK_RETRY_LIMIT;
}
