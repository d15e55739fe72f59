import { buildCheckPrompt, buildSuggestPrompt, type ModelPrompt } from '../../check-prompts';
import {
  asRecord,
  parseCheckText,
  parseSuggestText,
  uniqueSources,
} from '../../model-reply.parser';
import { HttpSearchProvider } from '../../http-search-provider';
import type { ProviderHttp } from '../../provider-api';
import { tokenCount, type ListPrice, type TokenUsage } from '../../provider-usage';
import {
  ProviderError,
  type CheckReply,
  type CheckRequest,
  type SuggestReply,
  type SuggestRequest,
} from '../../search-provider';
import { incompleteHint, itemsOfType, responsesText, responsesUsage } from '../responses-api.wire';
import { defineSearchProvider, type ProviderSettings } from '../../search-provider.definition';
import {
  DEFAULT_PERPLEXITY_MODEL,
  readPerplexityConfig,
  type PerplexityConfig,
} from './perplexity-search.config';

/** Sonar list price (README, "Providers"); the API's own `usage.cost` wins when it sends one. */
export const PERPLEXITY_LIST_PRICE: ListPrice = {
  model: DEFAULT_PERPLEXITY_MODEL,
  prices: { inputPerMTok: 1, outputPerMTok: 1, perSearch: 0.005 },
};

/**
 * The Perplexity adapter: one `POST /v1/agent` per check or suggestion with
 * the web search tool forced. A 200 can still carry a failed run (`status: failed`).
 */
export class PerplexitySearchProvider extends HttpSearchProvider<
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

  protected async runCheck(request: CheckRequest, signal?: AbortSignal): Promise<CheckReply> {
    const body = await this.runAgent(buildCheckPrompt(request, this.config.scheduler), signal);
    const tokens = perplexityTokens(body);
    return this.withTokens(tokens, () => {
      assertCompleted(body);
      return {
        ...parseCheckText(responsesText(body), request.now, incompleteHint(body)),
        groundingSources: perplexitySources(body),
        tokens,
      };
    });
  }

  protected async runSuggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestReply> {
    const body = await this.runAgent(buildSuggestPrompt(request, new Date()), signal);
    const tokens = perplexityTokens(body);
    return this.withTokens(tokens, () => {
      assertCompleted(body);
      return {
        suggestion: parseSuggestText(responsesText(body), request, incompleteHint(body)),
        tokens,
      };
    });
  }

  private runAgent(prompt: ModelPrompt, signal?: AbortSignal): Promise<unknown> {
    const apiKey = this.config.perplexity.apiKey ?? '';
    return this.http.requestJson({
      method: 'POST',
      url: `${this.config.perplexity.baseUrl}/v1/agent`,
      headers: { authorization: `Bearer ${apiKey}` },
      secret: apiKey,
      signal,
      body: {
        model: this.model,
        instructions: prompt.systemInstruction,
        input: prompt.userText,
        tools: [{ type: 'web_search' }],
        tool_choice: { type: 'web_search' },
      },
    });
  }
}

/** A run the API reports as failed or cancelled fails the call with the API's own message. */
function assertCompleted(body: unknown): void {
  const root = asRecord(body);
  const status = root?.status;
  if (status !== 'failed' && status !== 'cancelled') return;
  const message = asRecord(root?.error)?.message;
  const detail = typeof message === 'string' && message.trim() !== '' ? `: ${message.trim()}` : '';
  throw new ProviderError(`Perplexity API reported the run as ${status}${detail}`);
}

/** `output[type=search_results].results[].{url,title}`, one per URL. */
export function perplexitySources(body: unknown): ReturnType<typeof uniqueSources> {
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
export function perplexityTokens(body: unknown): TokenUsage {
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
  variables: ['PERPLEXITY_API_KEY'],
  readConfig: readPerplexityConfig,
  create: (...args) => new PerplexitySearchProvider(...args),
});
