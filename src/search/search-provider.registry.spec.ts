import { OutboundHttpClient } from '../common/outbound/outbound-http.client';
import { variablesRead, wrongDefaults } from '../../test/support/extension-docs';
import { readConfig } from '../config/config-slice';
import type { EnvReader } from '../config/env-reader';
import { schedulerConfig } from '../scheduler/scheduler.config';
import { DEFAULT_PROVIDER_HTTP_OPTIONS } from './provider-api';
import {
  GeminiSearchProvider,
  geminiSearchProvider,
} from './providers/gemini/gemini-search.provider';
import { SearxngSearchProvider } from './providers/searxng/searxng-search.provider';
import {
  createSearchProvider,
  NO_PROVIDER_MESSAGE,
  noProviderMessage,
  ProviderNotConfiguredError,
  SEARCH_PROVIDERS,
  UnconfiguredSearchProvider,
} from './search-provider.registry';
import { defineSearchProvider, requiredVariables } from './search-provider.definition';
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
    const provider = (label: string, ...required: string[]) =>
      defineSearchProvider({
        ...geminiSearchProvider,
        name: label.toLowerCase(),
        label,
        variables: required.map((name) => ({ name, required: true, description: name })),
      });
    expect(
      noProviderMessage([
        provider('Alpha', 'ALPHA_KEY'),
        provider('Beta', 'BETA_KEY'),
        provider('Gamma', 'GAMMA_URL', 'GAMMA_BASE', 'GAMMA_MODEL'),
      ]),
    ).toBe(
      'No grounded-search provider is configured (set ALPHA_KEY for Alpha, BETA_KEY for Beta, ' +
        'or GAMMA_URL with GAMMA_BASE and GAMMA_MODEL for Gamma; SEARCH_PROVIDER picks one when several are set)',
    );
  });

  it('should name every variable of every provider when no provider is configured', () => {
    for (const registration of SEARCH_PROVIDERS) {
      expect(NO_PROVIDER_MESSAGE).toContain(`for ${registration.label}`);
      for (const variable of requiredVariables(registration))
        expect(NO_PROVIDER_MESSAGE).toContain(variable);
    }
  });

  it.each(SEARCH_PROVIDERS.map((provider) => [provider.name, provider] as const))(
    'should declare every variable %s reads, with the value that unset stands for',
    (_name, provider) => {
      const read = (reader: EnvReader) => provider.readConfig(reader);
      const declared = provider.variables.map((variable) => variable.name);
      expect(variablesRead(read)).toEqual([...declared].sort());
      expect(wrongDefaults(provider.variables, read)).toEqual([]);
    },
  );

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
