import { ProviderApi, type ProviderHttp } from './provider-api';
import { pricesFor, type ListPrice, type Prices } from './provider-usage';
import { SearchProvider } from './search-provider';
import type { ProviderSettings } from './search-provider.definition';

/**
 * What the adapters that call a vendor over HTTP share: the configured model and its prices
 * (the list price of the default model unless `PRICE_*` override it), and the retry policy of
 * their endpoints on the shared outbound client (whose module closes its connections).
 */
export abstract class HttpSearchProvider<
  C extends ProviderSettings = ProviderSettings,
> extends SearchProvider {
  readonly model: string;
  protected readonly prices: Prices;

  constructor(
    protected readonly config: C,
    model: string,
    listPrice: ListPrice,
    private readonly transport: ProviderHttp,
    private readonly warn: (message: string) => void,
  ) {
    super();
    this.model = model;
    this.prices = pricesFor(listPrice, model, config.prices);
  }

  /** A retrying client for one vendor endpoint; `label` names it in errors and warnings. */
  protected httpClient(label: string): ProviderApi {
    return new ProviderApi(label, this.transport.client, this.transport.options, this.warn);
  }
}
