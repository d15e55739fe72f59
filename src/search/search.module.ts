import { Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { schedulerConfig, type SchedulerConfig } from '../scheduler/scheduler.config';
import { DEFAULT_PROVIDER_HTTP_OPTIONS, type ProviderHttpOptions } from './provider-api';
import { SearchProvider } from './search-provider';
import { createSearchProvider } from './search-provider.registry';
import { searchConfig, type SearchConfig } from './search.config';

/** Optional injection token to override `DEFAULT_PROVIDER_HTTP_OPTIONS` in a module. */
export const PROVIDER_HTTP_OPTIONS = Symbol('PROVIDER_HTTP_OPTIONS');

const logger = new Logger('SearchProvider');

/**
 * The grounded-search provider `SEARCH_PROVIDER` selects (see the registry). Feature code
 * depends on the abstract `SearchProvider` only.
 */
@Module({
  providers: [
    {
      provide: SearchProvider,
      useFactory: (
        search: SearchConfig,
        scheduler: SchedulerConfig,
        client: OutboundHttpClient,
        options?: Partial<ProviderHttpOptions>,
      ) =>
        createSearchProvider(
          search.provider,
          { ...search, scheduler },
          { client, options: { ...DEFAULT_PROVIDER_HTTP_OPTIONS, ...options } },
          (message) => logger.warn(message),
        ),
      inject: [
        searchConfig.token,
        schedulerConfig.token,
        OutboundHttpClient,
        { token: PROVIDER_HTTP_OPTIONS, optional: true },
      ],
    },
  ],
  exports: [SearchProvider],
})
export class SearchModule implements OnApplicationShutdown {
  constructor(@Inject(SearchProvider) private readonly provider: SearchProvider) {}

  onApplicationShutdown(): void {
    this.provider.close();
  }
}
