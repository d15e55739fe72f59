import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { bodyHash, comparePageText, contentHash } from './page-comparison';
import { httpStatusError, PageErrorForm } from './page-errors';
import { PageSlots } from './page-slots';
import {
  PAGE_FETCH_TIMEOUT_MS,
  PageFetcher,
  WORST_CASE_PAGES_MS,
  type PageFetchResult,
} from './page-fetcher';
import { isBotCheckAnswer, readPageText } from './page-text';
import type { PageResult, PageSnapshot, PageTarget } from './page.types';

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
 * The longest a page of a check waits for its slots: started by then, every page ends within
 * WORST_CASE_PAGES_MS of the check's start, which its job's expiry counts on.
 */
export const LATEST_START_MS = WORST_CASE_PAGES_MS - PAGE_FETCH_TIMEOUT_MS;

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
        pageResult(
          page,
          snapshot,
          { kind: 'error', error: PageErrorForm.TIMED_OUT },
          this.clock.now(),
        ),
    };
    return this.slots.run(
      userId,
      new URL(page.url).hostname,
      async () => {
        const fetched = await this.fetcher.fetchPage(page, snapshot ?? {});
        return pageResult(page, snapshot, fetched, this.clock.now());
      },
      giveUp,
    );
  }
}

/** What one fetch means for a page (docs/pages.md, "Page statuses"). */
export function pageResult(
  page: PageTarget,
  snapshot: PageSnapshot | null,
  fetched: PageFetchResult,
  fetchedAt: Date,
): PageResult {
  const base = { url: page.url, finalUrl: fetched.finalUrl ?? null, fetchedAt };
  const failed = (error: string, httpStatus: number | null): PageResult => ({
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
  });
  /** The last good fetch's text again, with this fetch's status and validators. */
  const unchanged = (
    last: PageSnapshot,
    answer: Pick<PageResult, 'httpStatus' | 'etag' | 'lastModified' | 'bodyHash'>,
  ): PageResult => ({
    ...base,
    ...answer,
    status: 'same',
    title: last.title,
    error: null,
    added: [],
    removed: [],
    text: last.text,
    contentHash: last.contentHash,
  });
  if (fetched.kind === 'error') {
    const botCheck = fetched.answer !== undefined && isBotCheckAnswer(fetched.answer);
    return failed(botCheck ? PageErrorForm.BOT_CHECK : fetched.error, fetched.httpStatus ?? null);
  }
  if (fetched.kind === 'not_modified') {
    // Only a conditional request earns a 304, and only a snapshot gives one its validators.
    if (snapshot === null) return failed(httpStatusError(304), 304);
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
  const read = readPageText(fetched, page.selector);
  if (read.kind === 'error') return failed(read.error, fetched.httpStatus);
  return {
    ...base,
    ...comparePageText(read.text, snapshot),
    ...validators,
    title: read.title,
    error: null,
    text: read.text,
    contentHash: contentHash(read.text),
  };
}
