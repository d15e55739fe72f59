import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { bodyHash } from './reading/page-comparison';
import { httpStatusError, PageErrorForm } from './page-errors';
import type { PageRead } from './reading/page-read';
import { PageReader } from './reading/page-reader';
import { MAX_PAGE_READ_MS } from './pages.config';
import { READ_WALL_FACTOR } from './reading/read-deadline';
import { MAX_FINAL_URL_CHARS, withinEntryBound } from './results/page-result-line';
import { PageSlots } from './page-slots';
import { PlainPageActivity } from './plain-page-activity';
import { PAGE_FETCH_TIMEOUT_MS, PageFetcher, type PageFetchResult } from './fetching/page-fetcher';
import { MAX_TITLE_CHARS } from './reading/page-text';
import { cutText } from './reading/text-bounds';
import { BROWSER_TURN_MS, BrowserPageFetcher } from './browser/browser-page-fetcher';
import { MAX_BROWSER_PAGES_AT_ONCE } from './browser/browser.config';
import {
  MAX_PAGES,
  type PageItem,
  type PageRender,
  type PageResult,
  type PageSnapshot,
  type PageTarget,
} from './page.types';
import { failedPageValues, keptValues, valuesDiffer } from './values/page-values';

/** Fetches of one host at a time in one instance. */
export const FETCHES_PER_HOST = 4;
/**
 * Pages over HTTP fetched and read at once in one instance, whatever their hosts (browser pages
 * have turns of their own, `BROWSER_PAGES_AT_ONCE`): each holds up to 5 MB of body, and its
 * decoded text, until it is read, so this bounds what pages take of a worker's memory (about 8 ×
 * 10 MB). It also bounds how long a page's fetch waits on the others' reading: 200 pages of 5 MB
 * at once were read no faster with 16 or 32 at once than with 8, and up to 1 (16) or 18 (32) of
 * them ran out of their 15 s (BENCHMARKS.md, "Page monitors: pages at once").
 */
export const PAGES_AT_ONCE = 8;
/**
 * Slots one user holds at once in one instance (its pages fetched or read): half of them, so one
 * user's slow pages never hold them all; another user's page takes the next slot that frees, at
 * the latest when a fetch or a read ends, however many pages one user has waiting.
 */
export const PAGES_PER_USER_AT_ONCE = PAGES_AT_ONCE / 2;
/**
 * The longest a page of a check waits for its slot: as long as the task's other pages would take
 * fetched one after another (as when they wait for one host's slots), each to its deadline.
 */
export const LATEST_START_MS = (MAX_PAGES - 1) * PAGE_FETCH_TIMEOUT_MS;
/**
 * Reads that can be under way or queued at once in one instance: one for each page slot and
 * one for each browser turn (a browser page is read in its turn).
 */
const READS_AT_ONCE = PAGES_AT_ONCE + MAX_BROWSER_PAGES_AT_ONCE;
/** The longest one read can take once its thread starts it, its thread starved of the cores. */
const LONGEST_READ_MS = READ_WALL_FACTOR * MAX_PAGE_READ_MS;
/**
 * The longest a page holds its slot: its fetch to the deadline, which covers all its redirects,
 * then its read, which may wait behind every other read of the instance before its own
 * `PAGE_READ_CPU_MS` starts.
 */
const WORST_CASE_HTTP_PAGE_MS = PAGE_FETCH_TIMEOUT_MS + READS_AT_ONCE * LONGEST_READ_MS;
/**
 * A browser page's worst case once its load starts (docs/pages.md, "Pages that need a
 * browser"): the browser's part of the turn, then its read, in the same turn. Its wait for the
 * turn, and in it for plain pages to pause (BROWSER_YIELD_MS from when it was asked for, less
 * than LATEST_START_MS), end by LATEST_START_MS.
 */
const WORST_CASE_BROWSER_PAGE_MS = BROWSER_TURN_MS + READS_AT_ONCE * LONGEST_READ_MS;
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
    private readonly plainPages: PlainPageActivity,
  ) {}

  /**
   * The pages of a task (or a preview) of user `userId`. With `everyItemNew` (a preview, which
   * keeps nothing), a list has no baseline: every item it shows is new (docs/pages.md, "Items
   * and feeds"). The declared values of a page that is an error are each `page error`
   * (docs/pages.md, "Values read from pages").
   */
  readPages(
    userId: string,
    pages: readonly PageTarget[],
    snapshots: ReadonlyMap<string, PageSnapshot>,
    everyItemNew = false,
  ): Promise<PageResult[]> {
    const startBy = Date.now() + LATEST_START_MS;
    return Promise.all(
      pages.map(async (page) => {
        const snapshot = snapshots.get(page.url) ?? null;
        const result = await this.readPage(userId, page, snapshot, startBy, everyItemNew);
        if (page.values === undefined || result.values !== undefined) return result;
        return { ...result, values: failedPageValues(page.values) };
      }),
    );
  }

  /**
   * A page over HTTP takes one slot, its user's and its host's limits allowing; the fetch's
   * deadline starts once it has it, and its read holds the slot and its user's share but no
   * longer counts against its host's limit. A browser page takes a browser turn instead and is
   * loaded and read in it, once plain pages pause (`plainPages`, which counts each plain page from
   * its wait for a slot to its read): it holds no slot and no share of its host that plain pages
   * need. A page still waiting at `startBy`, for a slot or a turn, is `timed out` without a fetch.
   */
  private readPage(
    userId: string,
    page: PageTarget,
    snapshot: PageSnapshot | null,
    startBy: number,
    everyItemNew: boolean,
  ): Promise<PageResult> {
    const giveUp = {
      at: startBy,
      answer: () =>
        failedPage(
          {
            url: page.url,
            render: renderOf(page),
            finalUrl: null,
            fetchedAt: this.clock.now(),
            newItems: noItems(page),
          },
          PageErrorForm.TIMED_OUT,
          null,
        ),
    };
    if (page.render === 'browser') {
      const work = () => this.readInBrowser(page, snapshot, everyItemNew);
      return this.browser.inTurn(userId, work, giveUp, this.plainPages);
    }
    const work = (fetchDone: () => void) =>
      this.readOverHttp(page, snapshot, fetchDone, everyItemNew);
    return this.plainPages.during(() =>
      this.slots.run(userId, new URL(page.url).hostname, work, giveUp),
    );
  }

  private async readOverHttp(
    page: PageTarget,
    snapshot: PageSnapshot | null,
    fetchDone: () => void,
    everyItemNew: boolean,
  ): Promise<PageResult> {
    // A page whose items have no baseline yet is read whole, not answered with a 304.
    const baseline = page.items !== undefined && snapshot?.seenKeys === undefined;
    const fetched = await this.fetcher.fetchPage(page, baseline ? {} : (snapshot ?? {}));
    fetchDone();
    return pageResult(page, snapshot, fetched, this.clock.now(), this.reader, everyItemNew);
  }

  private async readInBrowser(
    page: PageTarget,
    snapshot: PageSnapshot | null,
    everyItemNew: boolean,
  ): Promise<PageResult> {
    const { fetched, screenshot } = await this.browser.fetchPage(page);
    const result = await pageResult(
      page,
      snapshot,
      fetched,
      this.clock.now(),
      this.reader,
      everyItemNew,
    );
    return screenshot === null || result.status === 'error' ? result : { ...result, screenshot };
  }
}

/**
 * What every result of a page says: which page, how it was loaded, where it ended up, and when;
 * and of a page with items, its new items (none unless the fetch found some).
 */
type PageResultBase = Pick<PageResult, 'url' | 'render' | 'finalUrl' | 'fetchedAt' | 'newItems'>;

function renderOf(page: PageTarget): PageRender {
  return page.render ?? 'http';
}

/** A page's `newItems` when a fetch finds none: `[]` for a page with items, else null. */
function noItems(page: PageTarget): PageItem[] | null {
  return page.items === undefined ? null : [];
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
    newItemKeys: [],
    keysToRemember: [],
  };
}

/**
 * What one fetch means for a page (docs/pages.md, "Page statuses"). Its body (or an error
 * answer's, for a bot check) is read by `reader`, off the event loop, unless it is byte for byte
 * the body the last good text was read from. A page whose text is the same but a value differs
 * is `changed`, with no lines added or removed; one whose text is not read again (a 304, the same
 * body) keeps its last good fetch's values.
 */
export async function pageResult(
  page: PageTarget,
  snapshot: PageSnapshot | null,
  fetched: PageFetchResult,
  fetchedAt: Date,
  reader: PageReader,
  everyItemNew = false,
): Promise<PageResult> {
  const finalUrl =
    fetched.finalUrl === undefined ? null : cutText(fetched.finalUrl, MAX_FINAL_URL_CHARS);
  const base = {
    url: page.url,
    render: renderOf(page),
    finalUrl,
    fetchedAt,
    newItems: noItems(page),
  };
  /**
   * The last good fetch again, with this fetch's status and validators; its text is loaded only
   * if the check reads it (`PageResult.text`).
   */
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
    text: null,
    contentHash: last.contentHash,
    newItemKeys: [],
    keysToRemember: [],
    ...(page.values === undefined ? {} : { values: keptValues(page.values, last.values) }),
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
    bodyHash: bodyHash(fetched, page.selector, page.items, page.values),
  };
  const loadSeenKeys =
    page.items === undefined
      ? undefined
      : (snapshot?.seenKeys ?? (everyItemNew ? () => Promise.resolve([]) : undefined));
  // The body the last good text was read from, byte for byte: the same text, not read again
  // (unless its items have no baseline yet).
  if (
    snapshot !== null &&
    snapshot.bodyHash === validators.bodyHash &&
    (page.items === undefined || loadSeenKeys !== undefined)
  )
    return unchanged(snapshot, validators);
  const seenKeys = await loadSeenKeys?.();
  const previousText = snapshot === null ? null : await snapshot.text();
  const read = await reader.read(
    {
      kind: 'page',
      contentType: fetched.contentType,
      charset: fetched.charset,
      selector: page.selector,
      ...(page.values === undefined ? {} : { values: page.values }),
      previousText,
      finalUrl: fetched.finalUrl,
      items: page.items,
      ...(seenKeys === undefined ? {} : { seenKeys }),
    },
    fetched.body,
  );
  if (read.kind === 'error') return failedPage(base, read.error, fetched.httpStatus);
  const valueChanged = read.status === 'same' && valuesDiffer(snapshot?.values, read.values);
  return withinEntryBound({
    ...base,
    ...validators,
    status: valueChanged ? 'changed' : read.status,
    title: read.title,
    error: null,
    added: read.added,
    removed: read.removed,
    text: read.text,
    contentHash: read.contentHash,
    newItems: read.news?.newItems ?? base.newItems,
    newItemKeys: read.news?.newItemKeys ?? [],
    keysToRemember: read.news?.keysToRemember ?? [],
    ...(read.values === undefined ? {} : { values: read.values }),
  });
}
