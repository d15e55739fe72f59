import { Module } from '@nestjs/common';
import { PACKAGE_INFO } from '../config/package-info';
import { serverConfig, type ServerConfig } from '../config/server.config';
import {
  PAGE_FETCH_OPTIONS,
  PAGE_FETCH_TIMEOUT_MS,
  PageFetcher,
  type PageFetchOptions,
} from './page-fetcher';
import { PageStage } from './page-stage.service';
import { PageTargetsValidator } from './page-targets.validator';

/** `User-Agent: TaskMonitor/<version> (+<PUBLIC_URL>)` and the page deadline. */
export function pageFetchOptions(server: Pick<ServerConfig, 'publicUrl'>): PageFetchOptions {
  return {
    userAgent: `TaskMonitor/${PACKAGE_INFO.version} (+${server.publicUrl})`,
    timeoutMs: PAGE_FETCH_TIMEOUT_MS,
  };
}

/**
 * Page monitors (docs/pages.md): the page stage of a check and the validation of `pages` and
 * `page_rule`. Needs the global outbound client, clock and configuration.
 */
@Module({
  providers: [
    { provide: PAGE_FETCH_OPTIONS, useFactory: pageFetchOptions, inject: [serverConfig.token] },
    PageFetcher,
    PageStage,
    PageTargetsValidator,
  ],
  exports: [PageStage, PageTargetsValidator],
})
export class PagesModule {}
