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
  readingThreads,
  type PageReaderOptions,
} from './reading/page-reader';
import { PAGES_AT_ONCE, PageStage } from './page-stage.service';
import { PageTargetsValidator } from './targets/page-targets.validator';
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
 * Page monitors (docs/pages.md): the page stage of a check (`fetching/`, then `reading/` on a
 * pool of threads), the validation of `pages` (`targets/`) and `page_rule` (`rules/`), what a
 * check shows of its pages (`results/`); the snapshots of what each page last showed are
 * `PageSnapshotsModule` (`snapshots/`). Needs the global outbound client, clock and
 * configuration, and no database.
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
