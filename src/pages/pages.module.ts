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
import { PageSnapshotReads } from './snapshots/page-snapshot.reads';
import { PageSnapshotRepository } from './snapshots/page-snapshot.repository';

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
 * threads, the validation of `pages` and `page_rule`, and the snapshots of what each page last
 * showed (`snapshots/`: the repository the check pipeline writes and the reads the API answers).
 * Needs the global outbound client, clock, database and configuration.
 */
@Module({
  providers: [
    { provide: PAGE_FETCH_OPTIONS, useFactory: pageFetchOptions, inject: [serverConfig.token] },
    PageFetcher,
    { provide: PAGE_READER_OPTIONS, useFactory: pageReaderOptions, inject: [pagesConfig.token] },
    PageReader,
    PageStage,
    PageTargetsValidator,
    PageSnapshotRepository,
    PageSnapshotReads,
  ],
  exports: [PageStage, PageTargetsValidator, PageSnapshotRepository, PageSnapshotReads],
})
export class PagesModule {}
