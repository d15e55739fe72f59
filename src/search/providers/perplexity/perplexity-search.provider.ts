import { asRecord, uniqueSources } from '../../model-reply.parser';
import type { ProviderHttp } from '../../provider-api';
import { tokenCount, type ListPrice, type TokenUsage } from '../../provider-usage';
import { ProviderError } from '../../search-provider';
import { ResponsesApiProvider, type ResponsesEndpoint } from '../responses-api.provider';
import { itemsOfType, responsesUsage } from '../responses-api.wire';
import { defineSearchProvider, type ProviderSettings } from '../../search-provider.definition';
import {
  DEFAULT_PERPLEXITY_MODEL,
  PERPLEXITY_VARIABLES,
  readPerplexityConfig,
  type PerplexityConfig,
} from './perplexity-search.config';

/** Sonar list price (README, "Search providers"); the API's own `usage.cost` wins when it sends one. */
export const PERPLEXITY_LIST_PRICE: ListPrice = {
  model: DEFAULT_PERPLEXITY_MODEL,
  prices: { inputPerMTok: 1, outputPerMTok: 1, perSearch: 0.005 },
};

/**
 * The Perplexity adapter: `POST /v1/agent` with the web search tool forced. A 200 can still carry
 * a failed run (`status: failed`).
 */
export class PerplexitySearchProvider extends ResponsesApiProvider<
  ProviderSettings & PerplexityConfig
> {
  readonly name = 'perplexity';
  readonly http = this.httpClient('Perplexity API');

  constructor(
    config: ProviderSettings & PerplexityConfig,
    http: ProviderHttp,
    warn: (message: string) => void,
  ) {
    super(config, config.perplexity.model, PERPLEXITY_LIST_PRICE, http, warn);
  }

  isConfigured(): boolean {
    return this.config.perplexity.apiKey !== null;
  }

  protected endpoint(): ResponsesEndpoint {
    return {
      url: `${this.config.perplexity.baseUrl}/v1/agent`,
      apiKey: this.config.perplexity.apiKey ?? '',
      searchOptions: { tool_choice: { type: 'web_search' } },
    };
  }

  /** A run the API reports as failed or cancelled fails the call with the API's own message. */
  protected override assertCompleted(body: unknown): void {
    const root = asRecord(body);
    const status = root?.status;
    if (status !== 'failed' && status !== 'cancelled') return;
    const message = asRecord(root?.error)?.message;
    const detail =
      typeof message === 'string' && message.trim() !== '' ? `: ${message.trim()}` : '';
    throw new ProviderError(`Perplexity API reported the run as ${status}${detail}`);
  }

  protected sources(body: unknown): ReturnType<typeof uniqueSources> {
    return perplexitySources(body);
  }

  protected tokens(body: unknown): TokenUsage {
    return perplexityTokens(body);
  }
}

/** `output[type=search_results].results[].{url,title}`, one per URL. */
function perplexitySources(body: unknown): ReturnType<typeof uniqueSources> {
  return uniqueSources(
    itemsOfType(body, 'search_results').flatMap((item) =>
      (Array.isArray(item.results) ? item.results : []).map((result) => ({
        uri: asRecord(result)?.url,
        title: asRecord(result)?.title,
      })),
    ),
  );
}

/**
 * Searches: `usage.tool_calls_details.search_web` when present, else the `search_results` items;
 * cost: `usage.cost.total_cost` when present.
 */
function perplexityTokens(body: unknown): TokenUsage {
  const { inputTokens, outputTokens, usage } = responsesUsage(body);
  const searchWeb = asRecord(usage?.tool_calls_details)?.search_web;
  const counted = typeof searchWeb === 'number' ? searchWeb : asRecord(searchWeb)?.invocation;
  const totalCost = asRecord(usage?.cost)?.total_cost;
  return {
    inputTokens,
    outputTokens,
    searchCalls:
      typeof counted === 'number'
        ? tokenCount(counted)
        : itemsOfType(body, 'search_results').length,
    reportedCostUsd: typeof totalCost === 'number' && totalCost >= 0 ? totalCost : null,
  };
}

export const perplexitySearchProvider = defineSearchProvider({
  name: 'perplexity',
  label: 'Perplexity',
  variables: PERPLEXITY_VARIABLES,
  readConfig: readPerplexityConfig,
  secrets: {
    fields: ['apiKey'],
    shapes: [{ pattern: /\bpplx-[A-Za-z0-9]{20,}/g, mask: 'pplx-[Redacted]', clue: /pplx-/ }],
  },
  create: (...args) => new PerplexitySearchProvider(...args),
});
