import { Module } from '@nestjs/common';
import { PACKAGE_INFO } from '../config/package-info';
import { serverConfig, type ServerConfig } from '../config/server.config';
import {
  PAGE_FETCH_OPTIONS,
  PAGE_FETCH_TIMEOUT_MS,
  PageFetcher,
  type PageFetchOptions,
} from './page-fetcher';
import {
  PAGE_READER_OPTIONS,
  PageReader,
  readingThreads,
  type PageReaderOptions,
} from './page-reader';
import { PAGES_AT_ONCE, PageStage } from './page-stage.service';
import { PageTargetsValidator } from './page-targets.validator';
import { pagesConfig, type PagesConfig } from './pages.config';

/** `User-Agent: TaskMonitor/<version> (+<PUBLIC_URL>)` and the page deadline. */
export function pageFetchOptions(server: Pick<ServerConfig, 'publicUrl'>): PageFetchOptions {
  return {
    userAgent: `TaskMonitor/${PACKAGE_INFO.version} (+${server.publicUrl})`,
    timeoutMs: PAGE_FETCH_TIMEOUT_MS,
  };
}

/** A reading thread for each page read at once, as the cores allow, and `PAGE_READ_CPU_MS`. */
export function pageReaderOptions(pages: Pick<PagesConfig, 'readCpuMs'>): PageReaderOptions {
  return { threads: readingThreads(PAGES_AT_ONCE), deadlineMs: pages.readCpuMs };
}

/**
 * Page monitors (docs/pages.md): the page stage of a check, its pages read on a pool of
 * threads, and the validation of `pages` and `page_rule`. Needs the global outbound client, clock and configuration.
 */
@Module({
  providers: [
    { provide: PAGE_FETCH_OPTIONS, useFactory: pageFetchOptions, inject: [serverConfig.token] },
    PageFetcher,
    { provide: PAGE_READER_OPTIONS, useFactory: pageReaderOptions, inject: [pagesConfig.token] },
    PageReader,
    PageStage,
    PageTargetsValidator,
  ],
  exports: [PageStage, PageTargetsValidator],
})
export class PagesModule {}
