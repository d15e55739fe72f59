import { ProviderHttpClient, type ProviderHttpOptions } from './provider-http.client';
import { pricesFor, type ListPrice, type Prices } from './provider-usage';
import { SearchProvider } from './search-provider';
import type { ProviderSettings } from './search-provider.definition';

/**
 * What the adapters that call a vendor over HTTP share: the configured model and its prices
 * (the list price of the default model unless `PRICE_*` override it), and their HTTP clients,
 * closed together at shutdown.
 */
export abstract class HttpSearchProvider<
  C extends ProviderSettings = ProviderSettings,
> extends SearchProvider {
  readonly model: string;
  protected readonly prices: Prices;
  private readonly clients: ProviderHttpClient[] = [];

  constructor(
    protected readonly config: C,
    model: string,
    listPrice: ListPrice,
    private readonly httpOptions: ProviderHttpOptions,
    private readonly warn: (message: string) => void,
  ) {
    super();
    this.model = model;
    this.prices = pricesFor(listPrice, model, config.prices);
  }

  /** A retrying client for one vendor endpoint; `label` names it in errors and warnings. */
  protected httpClient(label: string): ProviderHttpClient {
    const client = new ProviderHttpClient(label, this.httpOptions, this.warn);
    this.clients.push(client);
    return client;
  }

  override close(): void {
    for (const client of this.clients) client.close();
  }
}
