import { DEFAULT_PROVIDER_HTTP_OPTIONS, type ProviderHttpOptions } from './provider-api';

/**
 * The most provider requests one check makes one after the other: SearXNG's search, then its
 * model (the other providers make one).
 */
export const MAX_SEQUENTIAL_REQUESTS_PER_CHECK = 2;

/**
 * The longest one provider request can take with its retries (ProviderApi):
 * every attempt may run to its timeout and still be retried (a 5xx just before it), and between
 * two attempts the client waits at most the longer of the backoff ceiling and the cap on a
 * server-requested wait (`Retry-After`).
 */
export function worstCaseRequestMs(options: ProviderHttpOptions): number {
  const attempts = options.maxRetries + 1;
  const longestPause = Math.max(options.backoffMaxMs, options.retryAfterCapMs);
  return attempts * options.timeoutMs + options.maxRetries * longestPause;
}

/** The longest a check's provider calls can take, every retry and `Retry-After` included. */
export function worstCaseCheckMs(
  options: ProviderHttpOptions = DEFAULT_PROVIDER_HTTP_OPTIONS,
): number {
  return MAX_SEQUENTIAL_REQUESTS_PER_CHECK * worstCaseRequestMs(options);
}
