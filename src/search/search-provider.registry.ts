import type { AppConfig } from '../config/app-config';
import type { ProviderHttp } from './provider-api';
import { UNKNOWN_PRICES } from './provider-usage';
import { GeminiSearchProvider } from './providers/gemini-search.provider';
import { OpenAiSearchProvider } from './providers/openai-search.provider';
import { PerplexitySearchProvider } from './providers/perplexity-search.provider';
import { SearxngSearchProvider } from './providers/searxng-search.provider';
import {
  ProviderNotConfiguredError,
  SearchProvider,
  type CheckReply,
  type SuggestReply,
} from './search-provider';

/** One provider: its `SEARCH_PROVIDER` name, the variables it needs, and how it is built. */
export interface ProviderRegistration {
  name: string;
  /** Every one must be set for the provider to run. */
  variables: readonly string[];
  create(config: AppConfig, http: ProviderHttp, warn: (message: string) => void): SearchProvider;
}

/**
 * The one registration of search providers, in the order `SEARCH_PROVIDER` falls back through
 * when it is unset. A new provider is its adapter file and a line here.
 */
export const SEARCH_PROVIDERS: readonly ProviderRegistration[] = [
  {
    name: 'gemini',
    variables: ['GEMINI_API_KEY'],
    create: (...args) => new GeminiSearchProvider(...args),
  },
  {
    name: 'openai',
    variables: ['OPENAI_API_KEY'],
    create: (...args) => new OpenAiSearchProvider(...args),
  },
  {
    name: 'perplexity',
    variables: ['PERPLEXITY_API_KEY'],
    create: (...args) => new PerplexitySearchProvider(...args),
  },
  {
    name: 'searxng',
    variables: ['SEARXNG_URL', 'LLM_BASE_URL', 'LLM_MODEL'],
    create: (...args) => new SearxngSearchProvider(...args),
  },
];

/** What runs when no provider is configured: every call fails with the no-provider message. */
export class UnconfiguredSearchProvider extends SearchProvider {
  readonly name = 'none';
  readonly model = '';
  protected readonly prices = UNKNOWN_PRICES;

  isConfigured(): boolean {
    return false;
  }

  protected runCheck(): Promise<CheckReply> {
    return Promise.reject(new ProviderNotConfiguredError());
  }

  protected runSuggest(): Promise<SuggestReply> {
    return Promise.reject(new ProviderNotConfiguredError());
  }
}

/** The provider `SEARCH_PROVIDER` (already resolved by the configuration) names. */
export function createSearchProvider(
  config: AppConfig,
  http: ProviderHttp,
  warn: (message: string) => void,
): SearchProvider {
  const registration = SEARCH_PROVIDERS.find(
    (candidate) => candidate.name === config.searchProvider,
  );
  return registration ? registration.create(config, http, warn) : new UnconfiguredSearchProvider();
}
