import { Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { UsageModule } from '../usage/usage.module';
import { GroundedSearchService } from './grounded-search.service';
import { DEFAULT_PROVIDER_HTTP_OPTIONS, type ProviderHttpOptions } from './provider-api';
import { SearchProvider } from './search-provider';
import { createSearchProvider } from './search-provider.registry';

/** Optional injection token to override `DEFAULT_PROVIDER_HTTP_OPTIONS` in a module. */
export const PROVIDER_HTTP_OPTIONS = Symbol('PROVIDER_HTTP_OPTIONS');

const logger = new Logger('SearchProvider');

/**
 * The grounded-search provider `SEARCH_PROVIDER` selects (see the registry). Feature code
 * depends on the abstract `SearchProvider` only.
 */
@Module({
  imports: [UsageModule],
  providers: [
    {
      provide: SearchProvider,
      useFactory: (
        config: AppConfig,
        client: OutboundHttpClient,
        options?: Partial<ProviderHttpOptions>,
      ) =>
        createSearchProvider(
          config,
          { client, options: { ...DEFAULT_PROVIDER_HTTP_OPTIONS, ...options } },
          (message) => logger.warn(message),
        ),
      inject: [APP_CONFIG, OutboundHttpClient, { token: PROVIDER_HTTP_OPTIONS, optional: true }],
    },
    GroundedSearchService,
  ],
  exports: [SearchProvider, GroundedSearchService],
})
export class SearchModule implements OnApplicationShutdown {
  constructor(@Inject(SearchProvider) private readonly provider: SearchProvider) {}

  onApplicationShutdown(): void {
    this.provider.close();
  }
}
