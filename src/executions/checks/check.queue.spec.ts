import { BROWSER_TURN_MS } from '../../pages/browser/browser-page-fetcher';
import { MAX_BROWSER_PAGES_AT_ONCE } from '../../pages/browser/browser.config';
import { MAX_PAGES } from '../../pages/page.types';
import { PAGE_FETCH_TIMEOUT_MS } from '../../pages/fetching/page-fetcher';
import { LATEST_START_MS, PAGES_AT_ONCE } from '../../pages/page-stage.service';
import { MAX_PAGE_READ_MS } from '../../pages/pages.config';
import { READ_WALL_FACTOR } from '../../pages/reading/read-deadline';
import { worstCaseCheckMs, worstCaseRequestMs } from '../../search/provider-call-budget';
import { DEFAULT_PROVIDER_HTTP_OPTIONS } from '../../search/provider-api';
import { CHECK_BOOKKEEPING_MS, CHECK_JOB_EXPIRY_SECONDS } from './check.queue';

describe('the check queue expiry', () => {
  /**
   * Every read an instance can have under way or queued (one a page slot, one a browser turn),
   * each starved of the cores to its end.
   */
  const everyRead =
    (PAGES_AT_ONCE + MAX_BROWSER_PAGES_AT_ONCE) * MAX_PAGE_READ_MS * READ_WALL_FACTOR;

  it("should outlast a check's worst case when every provider request retries to the end", () => {
    const oneRequest = worstCaseRequestMs(DEFAULT_PROVIDER_HTTP_OPTIONS);
    expect(worstCaseCheckMs()).toBeGreaterThanOrEqual(oneRequest);
    expect(CHECK_JOB_EXPIRY_SECONDS * 1000).toBeGreaterThan(worstCaseCheckMs());
  });

  it("should outlast a page task's check when every page waits for the one before and times out", () => {
    const everyPageInTurn = MAX_PAGES * PAGE_FETCH_TIMEOUT_MS;
    expect(CHECK_JOB_EXPIRY_SECONDS * 1000).toBeGreaterThan(everyPageInTurn + worstCaseCheckMs());
  });

  it("should outlast a page task's check when the last page to start waits behind every slot's and every turn's read", () => {
    const lastPage = LATEST_START_MS + PAGE_FETCH_TIMEOUT_MS + everyRead;
    expect(CHECK_JOB_EXPIRY_SECONDS * 1000).toBeGreaterThanOrEqual(
      lastPage + worstCaseCheckMs() + CHECK_BOOKKEEPING_MS,
    );
  });

  it("should outlast a browser page's check when it gets its turn last, then waits behind every other read", () => {
    const lastPage = LATEST_START_MS + BROWSER_TURN_MS + everyRead;
    expect(CHECK_JOB_EXPIRY_SECONDS * 1000).toBeGreaterThanOrEqual(
      lastPage + worstCaseCheckMs() + CHECK_BOOKKEEPING_MS,
    );
  });
});
