import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { UsageModule } from '../usage/usage.module';
import { GroundedSearchService } from './grounded-search.service';
import { DEFAULT_PROVIDER_HTTP_OPTIONS, type ProviderHttpOptions } from './provider-http.client';
import { SearchProvider } from './search-provider';
import { createSearchProvider } from './search-provider.registry';

/** Optional injection token to override `DEFAULT_PROVIDER_HTTP_OPTIONS` in a module. */
export const PROVIDER_HTTP_OPTIONS = Symbol('PROVIDER_HTTP_OPTIONS');

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
        logger: PinoLogger,
        options?: Partial<ProviderHttpOptions>,
      ) => {
        logger.setContext('SearchProvider');
        // A retry warning logged during a check carries the check's ids (its log context).
        return createSearchProvider(
          config,
          { ...DEFAULT_PROVIDER_HTTP_OPTIONS, ...options },
          (message) => logger.warn(message),
        );
      },
      inject: [APP_CONFIG, PinoLogger, { token: PROVIDER_HTTP_OPTIONS, optional: true }],
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
