import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import type { Browser, BrowserContext } from 'playwright-core';
import { withDeadline } from '../../common/clock/deadline';
import { InjectConfig } from '../../config/config-slice';
import { MetricsService } from '../../metrics/metrics.service';
import { PAGE_FETCH_OPTIONS, type PageFetchOptions } from '../fetching/page-fetcher';
import { PageErrorForm } from '../page-errors';
import { PageSlots, type GiveUp } from '../page-slots';
import type { PageTarget } from '../page.types';
import type { PlainPageActivity } from '../plain-page-activity';
import { browserConfig, hasBrowser, type BrowserConfig } from './browser.config';
import {
  BROWSER_CONTEXT_OPTIONS,
  BROWSER_PAGE_TIMEOUT_MS,
  failed,
  loadInBrowser,
  type BrowserRead,
} from './browser-page-loader';
import { BROWSER_START_TIMEOUT_MS, BrowserSession } from './browser-session';
import { EgressProxy, type DestinationCheck, type EgressListener } from './egress-proxy';

/** The SSRF guard the egress proxy asks, provided by `PagesModule`. */
export const BROWSER_DESTINATION_CHECK = Symbol('browser destination check');
/** A load past its own deadline by this much is given up, whatever step it is at. */
const BROWSER_GRACE_MS = 1_000;
/** Closing a page's context, and its proxy listener, takes at most this long. */
const BROWSER_CLOSE_TIMEOUT_MS = 5_000;
/**
 * The longest the browser's part of one browser page's turn takes: the browser started or
 * connected, the page loaded and its document and screenshot taken, its context closed. The
 * page's read follows in the same turn.
 */
export const BROWSER_TURN_MS =
  BROWSER_START_TIMEOUT_MS + BROWSER_PAGE_TIMEOUT_MS + BROWSER_GRACE_MS + BROWSER_CLOSE_TIMEOUT_MS;
/**
 * The longest a browser page waits, from when it is asked for, for a pause in the plain pages of
 * its machine (docs/pages.md, "Pages that need a browser"): a burst of plain checks shorter than
 * this runs without Chromium loading beside it; in a longer one, browser pages go on at their
 * pace once they have waited this long. It is shorter than a page's longest wait for
 * its turn (`LATEST_START_MS`), so a browser page's load starts by then, as before.
 */
export const BROWSER_YIELD_MS = 10_000;
/** Browser turns are limited per instance only: every page's turn counts on one host. */
const LINE = 'browser';

/**
 * Reads pages with `render: "browser"` (docs/pages.md, "Pages that need a browser"): in turns,
 * at most `BROWSER_PAGES_AT_ONCE` at once in this instance, shared by the users in turn, each
 * page in a fresh context of the browser (`BrowserSession`), all of its traffic through a
 * listener of its own on the egress proxy. A page's own failure, the browser's death included, is
 * a result, never an exception.
 */
@Injectable()
export class BrowserPageFetcher implements OnApplicationShutdown {
  private readonly proxy: EgressProxy;
  private readonly session: BrowserSession;
  private readonly turns: PageSlots;

  constructor(
    @InjectConfig(browserConfig) private readonly config: BrowserConfig,
    @Inject(BROWSER_DESTINATION_CHECK) check: DestinationCheck,
    @Inject(PAGE_FETCH_OPTIONS) private readonly options: PageFetchOptions,
    /** Absent where the page stage runs without the service's metrics (its own tests). */
    @Optional() private readonly metrics: MetricsService | null,
  ) {
    this.proxy = new EgressProxy(check, config.proxyHost);
    this.session = new BrowserSession(config, this.proxy);
    const limit = config.pagesAtOnce;
    this.turns = new PageSlots({ total: limit, perOwner: limit, perHost: limit });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.session.close();
  }

  /**
   * Runs `work` (which loads and reads a page of user `userId`) in one of this instance's browser
   * turns, which bound browser pages as page slots bound the others: a browser page takes no page
   * slot, so it holds nothing plain pages need. In its turn, the page waits until it has seen
   * `plainPages` quiet (QUIET_MS without one under way since it was asked for), at most until
   * BROWSER_YIELD_MS after it was asked for. A page still waiting for its turn at `giveUp.at`
   * answers `giveUp.answer()`. Without a browser, `work` runs at once: its load answers
   * `no browser`.
   */
  inTurn<T>(
    userId: string,
    work: () => Promise<T>,
    giveUp: GiveUp<T>,
    plainPages: PlainPageActivity,
  ): Promise<T> {
    if (!hasBrowser(this.config)) return work();
    const askedAt = Date.now();
    const inPause = async () => {
      await plainPages.quiet(askedAt, askedAt + BROWSER_YIELD_MS);
      return work();
    };
    return this.turns.run(userId, LINE, inPause, giveUp);
  }

  /** One page, in its turn; `no browser` at once when there is none. */
  async fetchPage(page: PageTarget): Promise<BrowserRead> {
    if (!hasBrowser(this.config)) return failed(PageErrorForm.NO_BROWSER);
    this.metrics?.browserPageStarted();
    try {
      return await this.turn(page);
    } finally {
      this.metrics?.browserPageEnded();
    }
  }

  private async turn(page: PageTarget): Promise<BrowserRead> {
    let browser: Browser;
    let egress: EgressListener;
    try {
      browser = await this.session.current();
      // A listener that cannot open (BROWSER_PROXY_HOST not an address of this machine) leaves
      // the browser no way out.
      egress = await this.proxy.open();
    } catch {
      return failed(PageErrorForm.BROWSER_FAILED);
    }
    const deadline = Date.now() + BROWSER_PAGE_TIMEOUT_MS;
    const opened: { context?: BrowserContext } = {};
    const load = async (): Promise<BrowserRead> => {
      const context = await browser.newContext({
        ...BROWSER_CONTEXT_OPTIONS,
        userAgent: this.options.userAgent,
        proxy: { server: egress.server },
      });
      opened.context = context;
      return loadInBrowser(context, page, egress, deadline);
    };
    const loading = load();
    try {
      // Each step of the load has the deadline; this catches a browser that stops answering
      // between them.
      return await withDeadline(loading, BROWSER_PAGE_TIMEOUT_MS + BROWSER_GRACE_MS, () =>
        failed(PageErrorForm.TIMED_OUT),
      );
    } catch {
      return failed(
        browser.isConnected() ? PageErrorForm.CONNECTION_FAILED : PageErrorForm.BROWSER_FAILED,
      );
    } finally {
      const closed = Promise.allSettled([opened.context?.close(), egress.close()]).then(
        () => undefined,
      );
      await withDeadline(closed, BROWSER_CLOSE_TIMEOUT_MS, () => undefined);
      // A context opened after the load was given up is closed once it is there.
      void loading
        .then(
          () => opened.context?.close(),
          () => opened.context?.close(),
        )
        .catch(() => undefined);
    }
  }
}
