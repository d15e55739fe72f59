import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { MetricsService } from '../metrics/metrics.service';
import { schedulerConfig, type SchedulerConfig } from '../scheduler/scheduler.config';
import { DEFAULT_PROVIDER_HTTP_OPTIONS, type ProviderHttpOptions } from './provider-api';
import { SearchProvider } from './search-provider';
import { createSearchProvider } from './search-provider.registry';
import { searchConfig, type SearchConfig } from './search.config';

/** Optional injection token to override `DEFAULT_PROVIDER_HTTP_OPTIONS` in a module. */
export const PROVIDER_HTTP_OPTIONS = Symbol('PROVIDER_HTTP_OPTIONS');

/**
 * The grounded-search provider `SEARCH_PROVIDER` selects (see the registry), its calls counted
 * in `monitor_model_calls_total`. Feature code depends on the abstract `SearchProvider` only.
 */
@Module({
  providers: [
    {
      provide: SearchProvider,
      useFactory: (
        search: SearchConfig,
        scheduler: SchedulerConfig,
        client: OutboundHttpClient,
        logger: PinoLogger,
        metrics: MetricsService,
        options?: Partial<ProviderHttpOptions>,
      ) => {
        logger.setContext('SearchProvider');
        // A retry warning logged during a check carries the check's ids (its log context).
        const provider = createSearchProvider(
          search.provider,
          { ...search, scheduler },
          { client, options: { ...DEFAULT_PROVIDER_HTTP_OPTIONS, ...options } },
          (message) => logger.warn(message),
        );
        provider.countCallsWith((kind) => metrics.recordModelCall(provider.name, kind));
        return provider;
      },
      inject: [
        searchConfig.token,
        schedulerConfig.token,
        OutboundHttpClient,
        PinoLogger,
        MetricsService,
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
