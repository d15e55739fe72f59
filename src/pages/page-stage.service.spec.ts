import { PinoLogger } from 'nestjs-pino';
import { bodyHash, contentHash } from './reading/page-comparison';
import { Clock } from '../common/clock/clock';
import type { OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { PageFetcher, type PageFetchResult } from './fetching/page-fetcher';
import { PageReader, READING_THREAD_HEAP_MB } from './reading/page-reader';
import { pageResultLine } from './results/page-result-line';
import {
  FETCHES_PER_HOST,
  LATEST_START_MS,
  PageStage,
  PAGES_AT_ONCE,
  PAGES_PER_USER_AT_ONCE,
  pageResult,
} from './page-stage.service';
import type { PageSnapshot, PageTarget } from './page.types';
import { BROWSER_YIELD_MS, BrowserPageFetcher } from './browser/browser-page-fetcher';
import { PlainPageActivity, QUIET_MS } from './plain-page-activity';
import type { BrowserRead } from './browser/browser-page-loader';

const page = { url: 'https://e.example/' };
const at = new Date('2026-11-26T10:00:00Z');
/** A snapshot whose last good text is `text`, loaded when asked. */
const lastText = (text: string) => () => Promise.resolve(text);
const snapshot = {
  text: lastText('old'),
  title: 'Old',
  contentHash: contentHash('old'),
  etag: '"1"',
};
const htmlBody = (markup: string) => ({ contentType: 'text/html', body: Buffer.from(markup) });

/** Reads on one thread: the stage's tests below fetch no body, so start none. */
const reader = new PageReader(
  { threads: 1, deadlineMs: 2_000, chrtPath: null, heapMb: READING_THREAD_HEAP_MB },
  new PinoLogger({}),
);
afterAll(() => reader.onApplicationShutdown());

describe('pageResult', () => {
  const result = (target: PageTarget, last: PageSnapshot | null, fetched: PageFetchResult) =>
    pageResult(target, last, fetched, at, reader);

  it('should read a body, compare it and keep its validators', async () => {
    const read = await result(page, snapshot, {
      kind: 'body',
      httpStatus: 200,
      finalUrl: 'https://e.example/b',
      etag: '"2"',
      ...htmlBody('<title>T</title><p>new</p>'),
    });
    expect(read).toEqual({
      url: 'https://e.example/',
      render: 'http',
      finalUrl: 'https://e.example/b',
      status: 'changed',
      httpStatus: 200,
      title: 'T',
      error: null,
      added: ['new'],
      removed: ['old'],
      fetchedAt: at,
      text: 'new',
      contentHash: contentHash('new'),
      etag: '"2"',
      lastModified: null,
      bodyHash: bodyHash(htmlBody('<title>T</title><p>new</p>'), undefined),
      newItems: null,
      newItemKeys: [],
      keysToRemember: [],
    });
  });

  it('should take a body equal to the last good one, with its type and selector, as the same text without reading it or loading the last text', async () => {
    const body = htmlBody('<title>T</title><p>new</p>');
    const last = {
      ...snapshot,
      bodyHash: bodyHash(body, undefined),
      text: jest.fn(lastText('old')),
    };
    const answer = { kind: 'body' as const, httpStatus: 200, finalUrl: page.url, ...body };
    const unread = jest.spyOn(reader, 'read');
    try {
      expect(await result(page, last, { ...answer, etag: '"3"' })).toMatchObject({
        status: 'same',
        httpStatus: 200,
        title: 'Old',
        text: null,
        contentHash: snapshot.contentHash,
        etag: '"3"',
        bodyHash: last.bodyHash,
      });
      expect(unread).not.toHaveBeenCalled();
      expect(last.text).not.toHaveBeenCalled();
    } finally {
      unread.mockRestore();
    }
    const selected = await result({ ...page, selector: 'p' }, last, answer);
    const retyped = await result(page, last, { ...answer, charset: 'latin1' });
    expect([selected, retyped].map((read) => [read.status, read.text])).toEqual([
      ['changed', 'new'],
      ['changed', 'new'],
    ]);
  });

  it('should carry the snapshot for a 304 and call a 304 without one an error', async () => {
    const notModified = {
      kind: 'not_modified' as const,
      httpStatus: 304 as const,
      finalUrl: page.url,
    };
    expect(await result(page, snapshot, notModified)).toMatchObject({
      status: 'same',
      httpStatus: 304,
      title: 'Old',
      text: null,
      etag: '"1"',
    });
    expect(await result(page, null, notModified)).toMatchObject({
      status: 'error',
      error: 'HTTP 304',
    });
  });

  it('should call an error answer that is a bot check blocked, and keep other errors as they are', async () => {
    const error = (markup: string) =>
      result(page, snapshot, {
        kind: 'error',
        error: 'HTTP 503',
        httpStatus: 503,
        finalUrl: page.url,
        answer: htmlBody(markup),
      });
    expect(await error('<title>Just a moment...</title>')).toMatchObject({
      status: 'error',
      error: 'blocked by a bot check',
      httpStatus: 503,
      text: null,
    });
    expect(await error('<p>Service unavailable</p>')).toMatchObject({
      status: 'error',
      error: 'HTTP 503',
    });
  });

  it('should call a page whose selector matches nothing an error', async () => {
    const read = await result({ ...page, selector: '.price' }, null, {
      kind: 'body',
      httpStatus: 200,
      finalUrl: page.url,
      ...htmlBody('<p>x</p>'),
    });
    expect(read).toMatchObject({
      status: 'error',
      error: 'selector matched nothing',
      httpStatus: 200,
    });
  });

  it('should cut a final_url to 2,048 characters and a carried title to 300', async () => {
    const finalUrl = `https://e.example/${'a'.repeat(5_000)}`;
    const read = await result(
      page,
      { ...snapshot, title: 'T'.repeat(1_000) },
      {
        kind: 'not_modified',
        httpStatus: 304,
        finalUrl,
      },
    );
    expect([read.finalUrl, read.title]).toEqual([finalUrl.slice(0, 2_048), 'T'.repeat(300)]);
  });

  it('should keep a page_results entry within 64 kB, cutting its added and removed lines in turn', async () => {
    // 50 lines of each kind, each 500 control characters that JSON writes as six bytes apiece.
    const lines = (mark: string) =>
      Array.from({ length: 50 }, (_, n) => `${mark}${n} ${'\u0001'.repeat(500)}`).join('\n');
    const read = await result(
      page,
      { ...snapshot, text: lastText(lines('old')) },
      {
        kind: 'body',
        httpStatus: 200,
        finalUrl: page.url,
        contentType: 'text/plain',
        body: Buffer.from(lines('new')),
      },
    );
    const entry = Buffer.byteLength(JSON.stringify(pageResultLine(read)));
    expect(entry).toBeLessThanOrEqual(64_000);
    expect(entry).toBeGreaterThan(60_000);
    expect(read.added.length - read.removed.length).toBeGreaterThanOrEqual(0);
    expect(read.added.length - read.removed.length).toBeLessThanOrEqual(1);
    expect([read.added[0].slice(0, 5), read.removed[0].slice(0, 5)]).toEqual(['new0 ', 'old0 ']);
  });
});

/** Work held until the test lets it go, counting how much is held at once. */
class Holds {
  inFlight = 0;
  mostInFlight = 0;
  private readonly waiting: Array<() => void> = [];

  async hold(): Promise<void> {
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight -= 1;
  }

  releaseAll(): void {
    this.waiting.splice(0).forEach((resolve) => resolve());
  }
}

/** Answers every page once the test lets it. */
class HeldFetcher extends PageFetcher {
  readonly held = new Holds();

  constructor() {
    super({} as OutboundHttpClient, { userAgent: 'test', timeoutMs: 1000 });
  }

  override async fetchPage(): Promise<PageFetchResult> {
    await this.held.hold();
    return { kind: 'error', error: 'connection failed' };
  }
}

/** A browser of one turn whose loads end when the test lets them. */
class HeldBrowser extends BrowserPageFetcher {
  readonly held = new Holds();

  constructor() {
    super(
      {
        wsEndpoint: 'ws://127.0.0.1:9/playwright',
        chromiumPath: null,
        chrtPath: null,
        pagesAtOnce: 1,
        proxyHost: '127.0.0.1',
      },
      () => Promise.resolve({ address: '127.0.0.1', family: 4 }),
      { userAgent: 'test', timeoutMs: 1000 },
      null,
    );
  }

  override async fetchPage(): Promise<BrowserRead> {
    await this.held.hold();
    return { fetched: { kind: 'error', error: 'connection failed' }, screenshot: null };
  }
}

/** The pages of these tests are all read over HTTP: no browser is asked. */
const httpOnly = {} as BrowserPageFetcher;

describe('PageStage', () => {
  const spread = (name: string, count: number) =>
    Array.from({ length: count }, (_, n) => ({ url: `https://${name}-${n}.example/` }));

  it('should read at most PAGES_AT_ONCE pages at once, whatever their hosts and users', async () => {
    const fetcher = new HeldFetcher();
    const stage = new PageStage(fetcher, new Clock(), reader, httpOnly, new PlainPageActivity());
    const reads = ['a', 'b', 'c'].map((user) =>
      stage.readPages(user, spread(user, PAGES_AT_ONCE), new Map()),
    );
    for (let round = 0; round < 20; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      fetcher.held.releaseAll();
    }
    expect((await Promise.all(reads)).flat()).toHaveLength(3 * PAGES_AT_ONCE);
    expect(fetcher.held.mostInFlight).toBe(PAGES_AT_ONCE);
  });

  it("should read at most PAGES_PER_USER_AT_ONCE of one user's pages at once, and another user's as soon as a slot frees", async () => {
    const fetcher = new HeldFetcher();
    const stage = new PageStage(fetcher, new Clock(), reader, httpOnly, new PlainPageActivity());
    const many = stage.readPages('many', spread('many', 100), new Map());
    await new Promise((resolve) => setImmediate(resolve));
    expect(fetcher.held.inFlight).toBe(PAGES_PER_USER_AT_ONCE);
    const one = stage.readPages('one', spread('one', 1), new Map());
    await new Promise((resolve) => setImmediate(resolve));
    expect(fetcher.held.inFlight).toBe(PAGES_PER_USER_AT_ONCE + 1);
    for (let round = 0; round < 40; round++) {
      fetcher.held.releaseAll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await one).toHaveLength(1);
    expect(await many).toHaveLength(100);
    expect(fetcher.held.mostInFlight).toBe(PAGES_PER_USER_AT_ONCE + 1);
  });

  it("should keep browser pages, waiting or loading, out of the page slots and their user's and host's shares", async () => {
    jest.useFakeTimers();
    try {
      const fetcher = new HeldFetcher();
      const browser = new HeldBrowser();
      const stage = new PageStage(fetcher, new Clock(), reader, browser, new PlainPageActivity());
      const drawn = Array.from({ length: PAGES_AT_ONCE }, (_, n) => ({
        url: `https://shop.example/drawn/${n}`,
        render: 'browser' as const,
      }));
      const inBrowser = stage.readPages('a', drawn, new Map());
      // The first browser page has seen the instance quiet and loads.
      await jest.advanceTimersByTimeAsync(QUIET_MS);
      const plainCount = Math.min(PAGES_PER_USER_AT_ONCE, FETCHES_PER_HOST);
      const plainPages = Array.from({ length: plainCount }, (_, n) => ({
        url: `https://shop.example/plain/${n}`,
      }));
      const plain = stage.readPages('a', plainPages, new Map());
      await jest.advanceTimersByTimeAsync(0);

      expect([browser.held.inFlight, fetcher.held.inFlight]).toEqual([1, plainCount]);
      fetcher.held.releaseAll();
      expect(await plain).toHaveLength(plainCount);
      for (let round = 0; round < PAGES_AT_ONCE * 4; round++) {
        browser.held.releaseAll();
        await jest.advanceTimersByTimeAsync(QUIET_MS);
      }
      expect(await inBrowser).toHaveLength(PAGES_AT_ONCE);
    } finally {
      jest.useRealTimers();
    }
  });

  describe('a browser page asked for while plain pages are under way', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    /** A stage with a user's plain pages under way, then a browser page asked for. */
    async function browserPageBehindPlainOnes() {
      const fetcher = new HeldFetcher();
      const browser = new HeldBrowser();
      const stage = new PageStage(fetcher, new Clock(), reader, browser, new PlainPageActivity());
      const plain = stage.readPages('a', spread('plain', PAGES_PER_USER_AT_ONCE), new Map());
      const drawn = stage.readPages(
        'b',
        [{ url: 'https://shop.example/drawn', render: 'browser' }],
        new Map(),
      );
      await jest.advanceTimersByTimeAsync(0);
      expect([fetcher.held.inFlight, browser.held.inFlight]).toEqual([PAGES_PER_USER_AT_ONCE, 0]);
      return { fetcher, browser, plain, drawn };
    }

    it('should start it QUIET_MS after the last of them ended', async () => {
      const { fetcher, browser, plain, drawn } = await browserPageBehindPlainOnes();
      await jest.advanceTimersByTimeAsync(2_000);
      fetcher.held.releaseAll();
      expect(await plain).toHaveLength(PAGES_PER_USER_AT_ONCE);
      await jest.advanceTimersByTimeAsync(QUIET_MS - 1);
      expect(browser.held.inFlight).toBe(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(browser.held.inFlight).toBe(1);
      browser.held.releaseAll();
      expect(await drawn).toEqual([expect.objectContaining({ render: 'browser' })]);
    });

    it('should yield for less than LATEST_START_MS, the wait that bounds when its load starts', () => {
      expect(BROWSER_YIELD_MS).toBeLessThan(LATEST_START_MS);
    });

    it('should start it after BROWSER_YIELD_MS when they never pause', async () => {
      const { fetcher, browser, plain, drawn } = await browserPageBehindPlainOnes();
      await jest.advanceTimersByTimeAsync(BROWSER_YIELD_MS - 1);
      expect(browser.held.inFlight).toBe(0);
      await jest.advanceTimersByTimeAsync(1);
      expect([fetcher.held.inFlight, browser.held.inFlight]).toEqual([PAGES_PER_USER_AT_ONCE, 1]);
      browser.held.releaseAll();
      fetcher.held.releaseAll();
      expect(await drawn).toHaveLength(1);
      expect(await plain).toHaveLength(PAGES_PER_USER_AT_ONCE);
    });
  });

  it('should answer timed out, without a fetch, for a page still waiting for a slot at LATEST_START_MS', async () => {
    jest.useFakeTimers();
    try {
      const fetcher = new HeldFetcher();
      const stage = new PageStage(fetcher, new Clock(), reader, httpOnly, new PlainPageActivity());
      const held = Promise.all(
        ['a', 'b'].map((user) =>
          stage.readPages(user, spread(user, PAGES_PER_USER_AT_ONCE), new Map()),
        ),
      );
      const late = stage.readPages('c', [{ url: 'https://late.example/' }], new Map());
      await jest.advanceTimersByTimeAsync(LATEST_START_MS - 1);
      expect(fetcher.held.inFlight).toBe(PAGES_AT_ONCE);
      await jest.advanceTimersByTimeAsync(1);
      expect(await late).toEqual([
        expect.objectContaining({
          url: 'https://late.example/',
          status: 'error',
          error: 'timed out',
        }),
      ]);
      expect(fetcher.held.mostInFlight).toBe(PAGES_AT_ONCE);
      fetcher.held.releaseAll();
      expect((await held).flat()).toHaveLength(PAGES_AT_ONCE);
    } finally {
      jest.useRealTimers();
    }
  });
});
