import {
  buildCheckPrompt,
  buildResultsCheckPrompt,
  buildSuggestPrompt,
  type ModelPrompt,
  type NumberedResult,
} from '../../check-prompts';
import {
  asRecord,
  citedResultIds,
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
  type GroundingSource,
  type SuggestReply,
  type SuggestRequest,
} from '../../search-provider';
import { defineSearchProvider, type ProviderSettings } from '../../search-provider.definition';
import { SEARXNG_VARIABLES, readSearxngConfig, type SearxngConfig } from './searxng-search.config';

/** SearXNG itself costs nothing per search; the model's tokens have no built-in price (self-hosted). */
export const SEARXNG_LIST_PRICE: ListPrice = {
  model: null,
  prices: { inputPerMTok: null, outputPerMTok: null, perSearch: 0 },
};

/** What a check of a task without pages fails with when no SearXNG is configured. */
export const NO_SEARCH_ENGINE =
  'No search engine is configured (SEARXNG_URL is unset): this server checks only tasks with pages';

/** SearXNG answers 20 to 40 results; the first ones are enough and keep the prompt small. */
export const MAX_RESULTS_SHOWN = 10;

/**
 * SearXNG and any OpenAI-compatible chat model: a check is one search
 * (`GET /search?format=json`), then one `POST /chat/completions` that judges the numbered
 * results. A suggestion, and a page check, is the chat call alone: the model has no search of
 * its own, so without SearXNG the provider still reads pages and suggests.
 */
export class SearxngSearchProvider extends HttpSearchProvider<ProviderSettings & SearxngConfig> {
  readonly name = 'searxng';
  readonly search = this.httpClient('SearXNG');
  readonly chat = this.httpClient('LLM server');

  constructor(
    config: ProviderSettings & SearxngConfig,
    http: ProviderHttp,
    warn: (message: string) => void,
  ) {
    super(config, config.llm.model ?? '', SEARXNG_LIST_PRICE, http, warn);
  }

  /** The chat model is the provider; SearXNG only adds web searches. */
  isConfigured(): boolean {
    return this.config.llm.baseUrl !== null && this.model !== '';
  }

  /** A check that needs a web search, without SearXNG, is refused before any call. */
  protected override refusal(request: CheckRequest): string | null {
    return request.pages === undefined && this.config.searxng.url === null
      ? NO_SEARCH_ENGINE
      : null;
  }

  protected async runCheck(request: CheckRequest, signal?: AbortSignal): Promise<CheckReply> {
    if (request.pages !== undefined) return this.readPages(request, signal);
    // Refused before the call (`refusal`); the type still needs the URL checked.
    if (this.config.searxng.url === null) throw new ProviderError(NO_SEARCH_ENGINE);
    const url = new URL(`${this.config.searxng.url}/search`);
    url.searchParams.set('q', request.searchQuery);
    url.searchParams.set('format', 'json');
    const found = await this.search.requestJson(
      { method: 'GET', url: url.toString(), signal },
      unresponsive,
    );
    const results = numberedResults(found);
    const prompt = buildResultsCheckPrompt(request, this.config.scheduler, results);
    const body = await this.complete(prompt, signal);
    const tokens = { ...chatTokens(body), searchCalls: 1 };
    return this.withTokens(tokens, () => {
      const [text, hint] = chatText(body);
      const check = parseCheckText(text, request.now, hint);
      return { ...check, groundingSources: citedSources(results, citedResultIds(text)), tokens };
    });
  }

  /** A page check: no search, the pages in the prompt; its sources are the pipeline's. */
  private async readPages(request: CheckRequest, signal?: AbortSignal): Promise<CheckReply> {
    const body = await this.complete(buildCheckPrompt(request, this.config.scheduler), signal);
    const tokens = chatTokens(body);
    return this.withTokens(tokens, () => {
      const [text, hint] = chatText(body);
      return { ...parseCheckText(text, request.now, hint), groundingSources: [], tokens };
    });
  }

  protected async runSuggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestReply> {
    const body = await this.complete(buildSuggestPrompt(request, new Date()), signal);
    const tokens = chatTokens(body);
    return this.withTokens(tokens, () => {
      const [text, hint] = chatText(body);
      return { suggestion: parseSuggestText(text, request, hint), tokens };
    });
  }

  private complete(prompt: ModelPrompt, signal?: AbortSignal): Promise<unknown> {
    const apiKey = this.config.llm.apiKey;
    return this.chat.requestJson({
      method: 'POST',
      url: `${this.config.llm.baseUrl}/chat/completions`,
      headers: apiKey === null ? {} : { authorization: `Bearer ${apiKey}` },
      secret: apiKey,
      signal,
      body: {
        model: this.model,
        messages: [
          { role: 'system', content: prompt.systemInstruction },
          { role: 'user', content: prompt.userText },
        ],
        temperature: 0.2,
        stream: false,
      },
    });
  }
}

/** No results while engines failed is SearXNG being unable to search right now: retried. */
function unresponsive(body: unknown): string | null {
  const root = asRecord(body);
  const results = root?.results;
  const engines = root?.unresponsive_engines;
  if (Array.isArray(results) && results.length > 0) return null;
  if (!Array.isArray(engines) || engines.length === 0) return null;
  const names = engines
    .map((engine) => (Array.isArray(engine) ? engine.join(': ') : String(engine)))
    .join(', ');
  return `found no results while its engines were unresponsive (${names})`;
}

export function numberedResults(body: unknown): NumberedResult[] {
  const results = asRecord(body)?.results;
  return (Array.isArray(results) ? results : [])
    .map(asRecord)
    .filter((result): result is Record<string, unknown> => typeof result?.url === 'string')
    .slice(0, MAX_RESULTS_SHOWN)
    .map((result, index) => ({
      id: index + 1,
      url: result.url as string,
      title: typeof result.title === 'string' ? result.title : '',
      content: typeof result.content === 'string' ? result.content : '',
    }));
}

/** The results the model cited, or every result shown when it cites none. */
export function citedSources(results: NumberedResult[], sourceIds: number[]): GroundingSource[] {
  const cited = results.filter((result) => sourceIds.includes(result.id));
  return uniqueSources(
    (cited.length > 0 ? cited : results).map((result) => ({
      uri: result.url,
      title: result.title,
    })),
  );
}

/** `choices[0].message.content`, with the finish reason as a hint when the reply was cut. */
function chatText(body: unknown): [string, string] {
  const choices = asRecord(body)?.choices;
  const choice = Array.isArray(choices) ? asRecord(choices[0]) : null;
  const content = asRecord(choice?.message)?.content;
  const finishReason = choice?.finish_reason;
  const hint =
    typeof finishReason === 'string' && finishReason !== 'stop'
      ? ` (finish reason: ${finishReason})`
      : '';
  return [typeof content === 'string' ? content : '', hint];
}

function chatTokens(body: unknown): TokenUsage {
  const usage = asRecord(asRecord(body)?.usage);
  return {
    inputTokens: tokenCount(usage?.prompt_tokens),
    outputTokens: tokenCount(usage?.completion_tokens),
    searchCalls: 0,
  };
}

export const searxngSearchProvider = defineSearchProvider({
  name: 'searxng',
  label: 'an OpenAI-compatible model (SEARXNG_URL adds web searches by SearXNG)',
  variables: SEARXNG_VARIABLES,
  readConfig: readSearxngConfig,
  secrets: { fields: ['apiKey'] },
  create: (...args) => new SearxngSearchProvider(...args),
});
