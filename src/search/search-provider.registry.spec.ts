import { OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { loadConfig } from '../config/app-config';
import { DEFAULT_PROVIDER_HTTP_OPTIONS } from './provider-api';
import { GeminiSearchProvider } from './providers/gemini-search.provider';
import { SearxngSearchProvider } from './providers/searxng-search.provider';
import { NO_PROVIDER_MESSAGE, ProviderNotConfiguredError } from './search-provider';
import {
  createSearchProvider,
  SEARCH_PROVIDERS,
  UnconfiguredSearchProvider,
} from './search-provider.registry';

const client = new OutboundHttpClient({ allowPrivateNetworks: false, dnsServers: [] });
const create = (env: Record<string, string>) =>
  createSearchProvider(
    loadConfig(env),
    { client, options: DEFAULT_PROVIDER_HTTP_OPTIONS },
    () => undefined,
  );

describe('search provider registry', () => {
  afterAll(() => client.onApplicationShutdown());

  it('should name every variable of every provider when no provider is configured', () => {
    for (const registration of SEARCH_PROVIDERS) {
      for (const variable of registration.variables)
        expect(NO_PROVIDER_MESSAGE).toContain(variable);
    }
  });

  it('should build the provider SEARCH_PROVIDER selects when its variables are set', () => {
    const provider = create({
      GEMINI_API_KEY: 'g',
      SEARXNG_URL: 'http://s',
      LLM_BASE_URL: 'http://l',
      LLM_MODEL: 'm',
      SEARCH_PROVIDER: 'searxng',
    });
    expect(provider).toBeInstanceOf(SearxngSearchProvider);
    expect(provider.isConfigured()).toBe(true);
    provider.close();
    expect(create({ GEMINI_API_KEY: 'g' })).toBeInstanceOf(GeminiSearchProvider);
  });

  it('should refuse every call when no provider is configured', async () => {
    const provider = create({});
    expect(provider).toBeInstanceOf(UnconfiguredSearchProvider);
    expect(provider.isConfigured()).toBe(false);
    await expect(provider.suggest({ prompt: 'anything' })).rejects.toBeInstanceOf(
      ProviderNotConfiguredError,
    );
  });
});
