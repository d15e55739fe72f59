import { buildCheckPrompt, buildSuggestPrompt, type ModelPrompt } from '../../check-prompts';
import {
  asRecord,
  parseCheckText,
  parseSuggestText,
  uniqueSources,
} from '../../model-reply.parser';
import { HttpSearchProvider } from '../../http-search-provider';
import type { ProviderHttp } from '../../provider-api';
import type { ListPrice, TokenUsage } from '../../provider-usage';
import type { CheckReply, CheckRequest, SuggestReply, SuggestRequest } from '../../search-provider';
import {
  incompleteHint,
  itemsOfType,
  responsesText,
  responsesUsage,
  urlCitations,
  urlSource,
} from '../responses-api.wire';
import { defineSearchProvider, type ProviderSettings } from '../../search-provider.definition';
import { DEFAULT_OPENAI_MODEL, readOpenAiConfig, type OpenAiConfig } from './openai-search.config';

/** GPT-5 mini list price with the web search tool (README, "Providers"). */
export const OPENAI_LIST_PRICE: ListPrice = {
  model: DEFAULT_OPENAI_MODEL,
  prices: { inputPerMTok: 0.25, outputPerMTok: 2, perSearch: 0.01 },
};

/**
 * The OpenAI adapter: one `POST /responses` per check or suggestion, with
 * the `web_search` tool required and its sources included.
 */
export class OpenAiSearchProvider extends HttpSearchProvider<ProviderSettings & OpenAiConfig> {
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

  protected async runCheck(request: CheckRequest, signal?: AbortSignal): Promise<CheckReply> {
    const body = await this.respond(buildCheckPrompt(request, this.config.scheduler), signal);
    const tokens = openAiTokens(body);
    return this.withTokens(tokens, () => ({
      ...parseCheckText(responsesText(body), request.now, incompleteHint(body)),
      groundingSources: openAiSources(body),
      tokens,
    }));
  }

  protected async runSuggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestReply> {
    const body = await this.respond(buildSuggestPrompt(request, new Date()), signal);
    const tokens = openAiTokens(body);
    return this.withTokens(tokens, () => ({
      suggestion: parseSuggestText(responsesText(body), request, incompleteHint(body)),
      tokens,
    }));
  }

  private respond(prompt: ModelPrompt, signal?: AbortSignal): Promise<unknown> {
    const apiKey = this.config.openai.apiKey ?? '';
    return this.http.requestJson({
      method: 'POST',
      url: `${this.config.openai.baseUrl}/responses`,
      headers: { authorization: `Bearer ${apiKey}` },
      secret: apiKey,
      signal,
      body: {
        model: this.model,
        instructions: prompt.systemInstruction,
        input: prompt.userText,
        tools: [{ type: 'web_search' }],
        tool_choice: 'required',
        include: ['web_search_call.action.sources'],
      },
    });
  }
}

function searchActions(body: unknown): Array<Record<string, unknown>> {
  return itemsOfType(body, 'web_search_call')
    .map((call) => asRecord(call.action))
    .filter((action): action is Record<string, unknown> => action !== null);
}

/** The `url_citation` annotations, then every source the searches read (title: the host). */
export function openAiSources(body: unknown): ReturnType<typeof uniqueSources> {
  const consulted = searchActions(body).flatMap((action) =>
    Array.isArray(action.sources)
      ? action.sources.map((source) => urlSource(asRecord(source)?.url))
      : [],
  );
  return uniqueSources([...urlCitations(body), ...consulted]);
}

/** Searches are the `web_search_call` items whose action is a search (not open_page or find). */
export function openAiTokens(body: unknown): TokenUsage {
  const { inputTokens, outputTokens } = responsesUsage(body);
  const searchCalls = searchActions(body).filter((action) => action.type === 'search').length;
  return { inputTokens, outputTokens, searchCalls };
}

export const openAiSearchProvider = defineSearchProvider({
  name: 'openai',
  label: 'OpenAI',
  variables: ['OPENAI_API_KEY'],
  readConfig: readOpenAiConfig,
  create: (...args) => new OpenAiSearchProvider(...args),
});
