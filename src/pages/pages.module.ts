import { Module } from '@nestjs/common';
import { PACKAGE_INFO } from '../config/package-info';
import { serverConfig, type ServerConfig } from '../config/server.config';
import {
  PAGE_FETCH_OPTIONS,
  PAGE_FETCH_TIMEOUT_MS,
  PageFetcher,
  type PageFetchOptions,
} from './fetching/page-fetcher';
import {
  PAGE_READER_OPTIONS,
  PageReader,
  READING_THREAD_HEAP_MB,
  readingThreads,
  type PageReaderOptions,
} from './reading/page-reader';
import { PAGES_AT_ONCE, PageStage } from './page-stage.service';
import { PlainPageActivity } from './plain-page-activity';
import { PageTargetsValidator } from './targets/page-targets.validator';
import { pagesConfig, type PagesConfig } from './pages.config';
import { BROWSER_DESTINATION_CHECK, BrowserPageFetcher } from './browser/browser-page-fetcher';
import type { DestinationCheck } from './browser/egress-proxy';
import { browserConfig, type BrowserConfig } from './browser/browser.config';
import { OutboundHttpClient } from '../common/outbound/outbound-http.client';

/** `User-Agent: TaskMonitor/<version> (+<PUBLIC_URL>)` and the page deadline. */
export function pageFetchOptions(server: Pick<ServerConfig, 'publicUrl'>): PageFetchOptions {
  return {
    userAgent: `TaskMonitor/${PACKAGE_INFO.version} (+${server.publicUrl})`,
    timeoutMs: PAGE_FETCH_TIMEOUT_MS,
  };
}

/**
 * A reading thread for each page read at once, as the cores allow, `PAGE_READ_CPU_MS`, and the
 * `chrt` that also starts Chromium under the idle policy.
 */
export function pageReaderOptions(
  pages: Pick<PagesConfig, 'readCpuMs'>,
  browser: Pick<BrowserConfig, 'chrtPath'>,
): PageReaderOptions {
  return {
    threads: readingThreads(PAGES_AT_ONCE),
    deadlineMs: pages.readCpuMs,
    chrtPath: browser.chrtPath,
    heapMb: READING_THREAD_HEAP_MB,
  };
}

/** The egress proxy of browser pages checks hosts as the page fetcher does: pinned DNS, SSRF guard. */
export function browserDestinationCheck(http: OutboundHttpClient): DestinationCheck {
  return (host) => http.resolveUserHost(host);
}

/**
 * Page monitors (docs/pages.md): the page stage of a check (`fetching/`, or `browser/` for pages
 * that need a browser, then `reading/` on a pool of threads), the validation of `pages`
 * (`targets/`) and `page_rule` (`rules/`), what a check shows of its pages (`results/`); the
 * snapshots of what each page last showed are `PageSnapshotsModule` (`snapshots/`). Needs the
 * global outbound client, clock, metrics and configuration, and no database: where the global
 * database signals are there, browser pages also wait for the plain pages of the other instances
 * on their machine (`PlainPageActivity`).
 */
@Module({
  providers: [
    { provide: PAGE_FETCH_OPTIONS, useFactory: pageFetchOptions, inject: [serverConfig.token] },
    PageFetcher,
    {
      provide: BROWSER_DESTINATION_CHECK,
      useFactory: browserDestinationCheck,
      inject: [OutboundHttpClient],
    },
    BrowserPageFetcher,
    {
      provide: PAGE_READER_OPTIONS,
      useFactory: pageReaderOptions,
      inject: [pagesConfig.token, browserConfig.token],
    },
    PageReader,
    PlainPageActivity,
    PageStage,
    PageTargetsValidator,
  ],
  exports: [PageStage, PageTargetsValidator],
})
export class PagesModule {}
