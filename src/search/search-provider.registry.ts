import type { ProviderHttp } from './provider-api';
import { UNKNOWN_PRICES } from './provider-usage';
import { geminiSearchProvider } from './providers/gemini/gemini-search.provider';
import { openAiSearchProvider } from './providers/openai/openai-search.provider';
import { perplexitySearchProvider } from './providers/perplexity/perplexity-search.provider';
import { searxngSearchProvider } from './providers/searxng/searxng-search.provider';
import { SearchProvider, type CheckReply, type SuggestReply } from './search-provider';
import {
  requiredVariables,
  type ProviderConfigsOf,
  type ProviderSettings,
  type SearchProviderDefinition,
} from './search-provider.definition';
import { CodedError } from '../common/errors/coded-error';
import { SearchErrorCode } from './search-error-code';

/**
 * The one list of search providers, in the order `SEARCH_PROVIDER` falls back through when it is
 * unset. A new provider is its folder and a line here (docs/extending.md); what follows from the
 * list is a function of it, so a test can add a provider to it.
 */
export const SEARCH_PROVIDERS = [
  geminiSearchProvider,
  openAiSearchProvider,
  perplexitySearchProvider,
  searxngSearchProvider,
] as const;

export type SearchProviderName = (typeof SEARCH_PROVIDERS)[number]['name'];

/** Every registered provider's own configuration, side by side. */
export type ProviderConfigs = ProviderConfigsOf<typeof SEARCH_PROVIDERS>;

/** "GEMINI_API_KEY for Gemini", "SEARXNG_URL with LLM_BASE_URL and LLM_MODEL for SearXNG ...". */
function setUp(definition: SearchProviderDefinition): string {
  const [first, ...rest] = requiredVariables(definition);
  const also =
    rest.length === 0
      ? ''
      : ` with ${[rest.slice(0, -1).join(', '), rest.at(-1)].filter(Boolean).join(' and ')}`;
  return `${first}${also} for ${definition.label}`;
}

/** Names every way to configure one of `providers`. */
export function noProviderMessage(providers: readonly SearchProviderDefinition[]): string {
  return `No grounded-search provider is configured (set ${[
    providers.slice(0, -1).map(setUp).join(', '),
    setUp(providers[providers.length - 1]),
  ].join(', or ')}; SEARCH_PROVIDER picks one when several are set)`;
}

export const NO_PROVIDER_MESSAGE = noProviderMessage(SEARCH_PROVIDERS);

export class ProviderNotConfiguredError extends CodedError<SearchErrorCode.PROVIDER_NOT_CONFIGURED> {
  constructor() {
    super(NO_PROVIDER_MESSAGE, SearchErrorCode.PROVIDER_NOT_CONFIGURED);
  }
}

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

/** The provider of `providers` that `SEARCH_PROVIDER` (already resolved by the configuration) names. */
export function createSearchProvider(
  selected: string | null,
  config: ProviderSettings & ProviderConfigs,
  http: ProviderHttp,
  warn: (message: string) => void,
  providers: readonly SearchProviderDefinition[] = SEARCH_PROVIDERS,
): SearchProvider {
  const definition = providers.find((candidate) => candidate.name === selected);
  return definition ? definition.create(config, http, warn) : new UnconfiguredSearchProvider();
}
