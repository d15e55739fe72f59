import { asRecord, uniqueSources } from '../../model-reply.parser';
import type { ProviderHttp } from '../../provider-api';
import type { ListPrice, TokenUsage } from '../../provider-usage';
import { ResponsesApiProvider, type ResponsesEndpoint } from '../responses-api.provider';
import { itemsOfType, responsesUsage, urlCitations, urlSource } from '../responses-api.wire';
import { defineSearchProvider, type ProviderSettings } from '../../search-provider.definition';
import {
  DEFAULT_OPENAI_MODEL,
  OPENAI_VARIABLES,
  readOpenAiConfig,
  type OpenAiConfig,
} from './openai-search.config';

/** GPT-5 mini list price with the web search tool (README, "Search providers"). */
export const OPENAI_LIST_PRICE: ListPrice = {
  model: DEFAULT_OPENAI_MODEL,
  prices: { inputPerMTok: 0.25, outputPerMTok: 2, perSearch: 0.01 },
};

/** The OpenAI adapter: `POST /responses` with the `web_search` tool required, its sources included. */
export class OpenAiSearchProvider extends ResponsesApiProvider<ProviderSettings & OpenAiConfig> {
  readonly name = 'openai';
  readonly http = this.httpClient('OpenAI API');

  constructor(
    config: ProviderSettings & OpenAiConfig,
    http: ProviderHttp,
    warn: (message: string) => void,
  ) {
    super(config, config.openai.model, OPENAI_LIST_PRICE, http, warn);
  }

  isConfigured(): boolean {
    return this.config.openai.apiKey !== null;
  }

  protected endpoint(): ResponsesEndpoint {
    return {
      url: `${this.config.openai.baseUrl}/responses`,
      apiKey: this.config.openai.apiKey ?? '',
      searchOptions: { tool_choice: 'required', include: ['web_search_call.action.sources'] },
    };
  }

  protected sources(body: unknown): ReturnType<typeof uniqueSources> {
    return openAiSources(body);
  }

  protected tokens(body: unknown): TokenUsage {
    return openAiTokens(body);
  }
}

function searchActions(body: unknown): Array<Record<string, unknown>> {
  return itemsOfType(body, 'web_search_call')
    .map((call) => asRecord(call.action))
    .filter((action): action is Record<string, unknown> => action !== null);
}

/** The `url_citation` annotations, then every source the searches read (title: the host). */
function openAiSources(body: unknown): ReturnType<typeof uniqueSources> {
  const consulted = searchActions(body).flatMap((action) =>
    Array.isArray(action.sources)
      ? action.sources.map((source) => urlSource(asRecord(source)?.url))
      : [],
  );
  return uniqueSources([...urlCitations(body), ...consulted]);
}

/** Searches are the `web_search_call` items whose action is a search (not open_page or find). */
function openAiTokens(body: unknown): TokenUsage {
  const { inputTokens, outputTokens } = responsesUsage(body);
  const searchCalls = searchActions(body).filter((action) => action.type === 'search').length;
  return { inputTokens, outputTokens, searchCalls };
}

export const openAiSearchProvider = defineSearchProvider({
  name: 'openai',
  label: 'OpenAI',
  variables: OPENAI_VARIABLES,
  readConfig: readOpenAiConfig,
  secrets: {
    fields: ['apiKey'],
    shapes: [{ pattern: /\bsk-[A-Za-z0-9_-]{20,}/g, mask: 'sk-[Redacted]', clue: /sk-/ }],
  },
  create: (...args) => new OpenAiSearchProvider(...args),
});
