import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { bodyHash } from './reading/page-comparison';
import { httpStatusError, PageErrorForm } from './page-errors';
import type { PageRead } from './reading/page-read';
import { PageReader } from './reading/page-reader';
import { MAX_PAGE_READ_MS } from './pages.config';
import { MAX_FINAL_URL_CHARS, withinEntryBound } from './results/page-result-line';
import { PageSlots } from './page-slots';
import { PAGE_FETCH_TIMEOUT_MS, PageFetcher, type PageFetchResult } from './fetching/page-fetcher';
import { cutText, MAX_TITLE_CHARS } from './reading/page-text';
import { BROWSER_TURN_MS, BrowserPageFetcher } from './browser/browser-page-fetcher';
import {
  MAX_PAGES,
  type PageRender,
  type PageResult,
  type PageSnapshot,
  type PageTarget,
} from './page.types';

/** Fetches of one host at a time in one instance. */
export const FETCHES_PER_HOST = 4;
/**
 * Pages fetched and read at once in one instance, whatever their hosts: each holds up to 5 MB
 * of body, and its decoded text, until it is read, so this bounds what pages take of a worker's
 * memory (about 8 × 10 MB). It also bounds how long a page's fetch waits on the others'
 * reading: 200 pages of 5 MB at once were read no faster with 16 or 32 at once than with 8, and
 * up to 1 (16) or 18 (32) of them ran out of their 15 s (BENCHMARKS.md, "Page monitors: pages
 * at once").
 */
export const PAGES_AT_ONCE = 8;
/**
 * Pages of one user fetched and read at once in one instance: half the slots, so another user's
 * page always finds one within a page's deadline, however many pages one user has waiting.
 */
export const PAGES_PER_USER_AT_ONCE = PAGES_AT_ONCE / 2;
/**
 * The longest a page of a check waits for its slot: as long as the task's other pages would take
 * fetched one after another (as when they wait for one host's slots), each to its deadline.
 */
export const LATEST_START_MS = (MAX_PAGES - 1) * PAGE_FETCH_TIMEOUT_MS;
/**
 * The longest a page holds its slot: its fetch to the deadline, which covers all its redirects,
 * then its read, which may wait behind the reads of the instance's other slots before its own
 * `PAGE_READ_CPU_MS` starts.
 */
const WORST_CASE_HTTP_PAGE_MS = PAGE_FETCH_TIMEOUT_MS + PAGES_AT_ONCE * MAX_PAGE_READ_MS;
/**
 * A browser page's worst case (docs/pages.md, "Pages that need a browser"): only pages holding a
 * slot wait in the browser's line, so at most PAGES_AT_ONCE - 1 are ahead of it; with the least
 * `BROWSER_PAGES_AT_ONCE`, 1, each takes its whole turn before the page takes its own, then its
 * read.
 */
const WORST_CASE_BROWSER_PAGE_MS =
  PAGES_AT_ONCE * BROWSER_TURN_MS + PAGES_AT_ONCE * MAX_PAGE_READ_MS;
const WORST_CASE_PAGE_MS = Math.max(WORST_CASE_HTTP_PAGE_MS, WORST_CASE_BROWSER_PAGE_MS);
/**
 * The longest the pages of one check can take, which its job's expiry counts on: every page has
 * started by LATEST_START_MS, or given up then, and each started page ends within its worst case.
 */
export const WORST_CASE_PAGES_MS = LATEST_START_MS + WORST_CASE_PAGE_MS;

/**
 * The page stage of a check (docs/pages.md): fetch, read and compare every page of a task, given
 * each page's last good snapshot by URL. Pages are read at once, within the instance's slots
 * (`PageSlots`: shared by the users in turn, limited per host); the answer keeps the task's page
 * order. Holds no database connection: the caller loads the snapshots before and stores the
 * results after.
 */
@Injectable()
export class PageStage {
  private readonly slots = new PageSlots({
    total: PAGES_AT_ONCE,
    perOwner: PAGES_PER_USER_AT_ONCE,
    perHost: FETCHES_PER_HOST,
  });

  constructor(
    private readonly fetcher: PageFetcher,
    private readonly clock: Clock,
    private readonly reader: PageReader,
    private readonly browser: BrowserPageFetcher,
  ) {}

  /** The pages of a task (or a preview) of user `userId`. */
  readPages(
    userId: string,
    pages: readonly PageTarget[],
    snapshots: ReadonlyMap<string, PageSnapshot>,
  ): Promise<PageResult[]> {
    const startBy = Date.now() + LATEST_START_MS;
    return Promise.all(
      pages.map((page) => this.readPage(userId, page, snapshots.get(page.url) ?? null, startBy)),
    );
  }

  /**
   * One slot for the page, its user's and its host's limits allowing; the fetch's deadline starts
   * once it has it. A page still waiting at `startBy` is `timed out` without a fetch.
   */
  private readPage(
    userId: string,
    page: PageTarget,
    snapshot: PageSnapshot | null,
    startBy: number,
  ): Promise<PageResult> {
    const giveUp = {
      at: startBy,
      answer: () =>
        failedPage(
          { url: page.url, render: renderOf(page), finalUrl: null, fetchedAt: this.clock.now() },
          PageErrorForm.TIMED_OUT,
          null,
        ),
    };
    return this.slots.run(
      userId,
      new URL(page.url).hostname,
      async () => {
        if (page.render === 'browser') {
          const { fetched, screenshot } = await this.browser.fetchPage(page);
          const result = await pageResult(page, snapshot, fetched, this.clock.now(), this.reader);
          return screenshot === null || result.status === 'error'
            ? result
            : { ...result, screenshot };
        }
        const fetched = await this.fetcher.fetchPage(page, snapshot ?? {});
        return pageResult(page, snapshot, fetched, this.clock.now(), this.reader);
      },
      giveUp,
    );
  }
}

/** What every result of a page says: which page, how it was loaded, where it ended up, and when. */
type PageResultBase = Pick<PageResult, 'url' | 'render' | 'finalUrl' | 'fetchedAt'>;

function renderOf(page: PageTarget): PageRender {
  return page.render ?? 'http';
}

/** A page that could not be read, with the short fixed form of why. */
export function failedPage(
  base: PageResultBase,
  error: string,
  httpStatus: number | null,
): PageResult {
  return {
    ...base,
    status: 'error',
    httpStatus,
    title: null,
    error,
    added: [],
    removed: [],
    text: null,
    contentHash: null,
    etag: null,
    lastModified: null,
    bodyHash: null,
  };
}

/**
 * What one fetch means for a page (docs/pages.md, "Page statuses"). Its body (or an error
 * answer's, for a bot check) is read by `reader`, off the event loop, unless it is byte for byte
 * the body the last good text was read from.
 */
export async function pageResult(
  page: PageTarget,
  snapshot: PageSnapshot | null,
  fetched: PageFetchResult,
  fetchedAt: Date,
  reader: PageReader,
): Promise<PageResult> {
  const finalUrl =
    fetched.finalUrl === undefined ? null : cutText(fetched.finalUrl, MAX_FINAL_URL_CHARS);
  const base = { url: page.url, render: renderOf(page), finalUrl, fetchedAt };
  /** The last good fetch's text again, with this fetch's status and validators. */
  const unchanged = (
    last: PageSnapshot,
    answer: Pick<PageResult, 'httpStatus' | 'etag' | 'lastModified' | 'bodyHash'>,
  ): PageResult => ({
    ...base,
    ...answer,
    status: 'same',
    // Kept before titles were cut, a snapshot's may be longer.
    title: last.title === null ? null : cutText(last.title, MAX_TITLE_CHARS),
    error: null,
    added: [],
    removed: [],
    text: last.text,
    contentHash: last.contentHash,
  });
  if (fetched.kind === 'error') {
    const { answer, error } = fetched;
    const read: PageRead =
      answer === undefined
        ? { kind: 'error', error }
        : await reader.read(
            {
              kind: 'error answer',
              contentType: answer.contentType,
              charset: answer.charset,
              error,
            },
            answer.body,
          );
    return failedPage(base, read.kind === 'error' ? read.error : error, fetched.httpStatus ?? null);
  }
  if (fetched.kind === 'not_modified') {
    // Only a conditional request earns a 304, and only a snapshot gives one its validators.
    if (snapshot === null) return failedPage(base, httpStatusError(304), 304);
    return unchanged(snapshot, {
      httpStatus: 304,
      etag: snapshot.etag ?? null,
      lastModified: snapshot.lastModified ?? null,
      bodyHash: snapshot.bodyHash ?? null,
    });
  }
  const validators = {
    httpStatus: fetched.httpStatus,
    etag: fetched.etag ?? null,
    lastModified: fetched.lastModified ?? null,
    bodyHash: bodyHash(fetched, page.selector),
  };
  // The body the last good text was read from, byte for byte: the same text, not read again.
  if (snapshot !== null && snapshot.bodyHash === validators.bodyHash)
    return unchanged(snapshot, validators);
  const read = await reader.read(
    {
      kind: 'page',
      contentType: fetched.contentType,
      charset: fetched.charset,
      selector: page.selector,
      previousText: snapshot?.text ?? null,
    },
    fetched.body,
  );
  if (read.kind === 'error') return failedPage(base, read.error, fetched.httpStatus);
  return withinEntryBound({
    ...base,
    ...validators,
    status: read.status,
    title: read.title,
    error: null,
    added: read.added,
    removed: read.removed,
    text: read.text,
    contentHash: read.contentHash,
  });
}
