import { OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { readConfig } from '../config/config-slice';
import { schedulerConfig } from '../scheduler/scheduler.config';
import { DEFAULT_PROVIDER_HTTP_OPTIONS } from './provider-api';
import { GeminiSearchProvider } from './providers/gemini/gemini-search.provider';
import { SearxngSearchProvider } from './providers/searxng/searxng-search.provider';
import {
  createSearchProvider,
  NO_PROVIDER_MESSAGE,
  ProviderNotConfiguredError,
  SEARCH_PROVIDERS,
  UnconfiguredSearchProvider,
} from './search-provider.registry';
import { searchConfig } from './search.config';

const client = new OutboundHttpClient({ allowPrivateNetworks: false, dnsServers: [] });

function create(env: Record<string, string>) {
  const { search, scheduler } = readConfig(env, {
    search: searchConfig,
    scheduler: schedulerConfig,
  });
  return createSearchProvider(
    search.provider,
    { ...search, scheduler },
    { client, options: DEFAULT_PROVIDER_HTTP_OPTIONS },
    () => undefined,
  );
}

describe('search provider registry', () => {
  afterAll(() => client.onApplicationShutdown());

  it('should name every way to configure a provider when none is configured', () => {
    expect(NO_PROVIDER_MESSAGE).toBe(
      'No grounded-search provider is configured (set GEMINI_API_KEY for Gemini, OPENAI_API_KEY for OpenAI, ' +
        'PERPLEXITY_API_KEY for Perplexity, or SEARXNG_URL with LLM_BASE_URL and LLM_MODEL for SearXNG ' +
        'judged by an OpenAI-compatible model; SEARCH_PROVIDER picks one when several are set)',
    );
  });

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
