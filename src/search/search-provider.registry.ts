import type { ProviderHttp } from './provider-api';
import { UNKNOWN_PRICES } from './provider-usage';
import { geminiSearchProvider } from './providers/gemini/gemini-search.provider';
import { openAiSearchProvider } from './providers/openai/openai-search.provider';
import { perplexitySearchProvider } from './providers/perplexity/perplexity-search.provider';
import { searxngSearchProvider } from './providers/searxng/searxng-search.provider';
import { SearchProvider, type CheckReply, type SuggestReply } from './search-provider';
import type { ProviderSettings, SearchProviderDefinition } from './search-provider.definition';
import { CodedError } from '../common/errors/coded-error';
import { SearchErrorCode } from './search-error-code';

/**
 * The one list of search providers, in the order `SEARCH_PROVIDER` falls back through when it is
 * unset. A new provider is its adapter (with its config) and a line here.
 */
export const SEARCH_PROVIDERS = [
  geminiSearchProvider,
  openAiSearchProvider,
  perplexitySearchProvider,
  searxngSearchProvider,
] as const;

type Registered = (typeof SEARCH_PROVIDERS)[number];

export type SearchProviderName = Registered['name'];

/** Every provider's own configuration, side by side (`{ gemini: {...}, openai: {...} }`). */
export type ProviderConfigs = UnionToIntersection<ReturnType<Registered['readConfig']>>;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

/** "GEMINI_API_KEY for Gemini", "SEARXNG_URL with LLM_BASE_URL and LLM_MODEL for SearXNG ...". */
function setUp({ variables: [first, ...rest], label }: SearchProviderDefinition): string {
  const also =
    rest.length === 0
      ? ''
      : ` with ${[rest.slice(0, -1).join(', '), rest.at(-1)].filter(Boolean).join(' and ')}`;
  return `${first}${also} for ${label}`;
}

/** Names every way to configure a provider. */
export const NO_PROVIDER_MESSAGE = `No grounded-search provider is configured (set ${[
  SEARCH_PROVIDERS.slice(0, -1).map(setUp).join(', '),
  setUp(SEARCH_PROVIDERS[SEARCH_PROVIDERS.length - 1]),
].join(', or ')}; SEARCH_PROVIDER picks one when several are set)`;

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

/** The provider `SEARCH_PROVIDER` (already resolved by the configuration) names. */
export function createSearchProvider(
  selected: string | null,
  config: ProviderSettings & ProviderConfigs,
  http: ProviderHttp,
  warn: (message: string) => void,
): SearchProvider {
  const definition: SearchProviderDefinition | undefined = SEARCH_PROVIDERS.find(
    (candidate) => candidate.name === selected,
  );
  return definition ? definition.create(config, http, warn) : new UnconfiguredSearchProvider();
}
