import { MAX_PAGES } from '../pages/page.types';
import { PAGE_FETCH_TIMEOUT_MS } from '../pages/page-fetcher';
import { worstCaseCheckMs, worstCaseRequestMs } from '../search/provider-call-budget';
import { DEFAULT_PROVIDER_HTTP_OPTIONS } from '../search/provider-api';
import { CHECK_JOB_EXPIRY_SECONDS } from './queues';

describe('the check queue expiry', () => {
  it("should outlast a check's worst case when every provider request retries to the end", () => {
    const oneRequest = worstCaseRequestMs(DEFAULT_PROVIDER_HTTP_OPTIONS);
    expect(worstCaseCheckMs()).toBeGreaterThanOrEqual(oneRequest);
    expect(CHECK_JOB_EXPIRY_SECONDS * 1000).toBeGreaterThan(worstCaseCheckMs());
  });

  it("should outlast a page task's check when every page waits for the one before and times out", () => {
    const everyPageInTurn = MAX_PAGES * PAGE_FETCH_TIMEOUT_MS;
    expect(CHECK_JOB_EXPIRY_SECONDS * 1000).toBeGreaterThan(everyPageInTurn + worstCaseCheckMs());
  });
});
