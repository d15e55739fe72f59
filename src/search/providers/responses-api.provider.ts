import { buildCheckPrompt, buildSuggestPrompt, type ModelPrompt } from '../check-prompts';
import { HttpSearchProvider } from '../http-search-provider';
import { parseCheckText, parseSuggestText, type uniqueSources } from '../model-reply.parser';
import type { ProviderApi } from '../provider-api';
import type { TokenUsage } from '../provider-usage';
import type { CheckReply, CheckRequest, SuggestReply, SuggestRequest } from '../search-provider';
import type { ProviderSettings } from '../search-provider.definition';
import { incompleteHint, responsesText } from './responses-api.wire';

/** Where a Responses-style API is called, and how its web search tool is forced. */
export interface ResponsesEndpoint {
  url: string;
  apiKey: string;
  /** Body fields that go with `tools: [{type: 'web_search'}]` (none without the tool). */
  searchOptions: Record<string, unknown>;
}

/**
 * The adapters of Responses-style APIs (OpenAI's `POST /responses`, Perplexity's `POST /v1/agent`):
 * one call per check or suggestion, the system prompt as `instructions` and the request as
 * `input`, the web search tool forced (a page check's call has no tool); the answer's text in
 * `output[].content[]`. Each adapter says where to call, and how its API reports sources and
 * usage.
 */
export abstract class ResponsesApiProvider<
  C extends ProviderSettings = ProviderSettings,
> extends HttpSearchProvider<C> {
  protected abstract readonly http: ProviderApi;

  protected abstract endpoint(): ResponsesEndpoint;
  protected abstract sources(body: unknown): ReturnType<typeof uniqueSources>;
  protected abstract tokens(body: unknown): TokenUsage;

  /** Throws when an answer with status 200 still carries a failed run; none does by default. */
  protected assertCompleted(_body: unknown): void {}

  protected async runCheck(request: CheckRequest, signal?: AbortSignal): Promise<CheckReply> {
    const body = await this.respond(
      buildCheckPrompt(request, this.config.scheduler),
      request.pages === undefined,
      signal,
    );
    const tokens = this.tokens(body);
    return this.withTokens(tokens, () => {
      this.assertCompleted(body);
      return {
        ...parseCheckText(responsesText(body), request.now, incompleteHint(body)),
        groundingSources: this.sources(body),
        tokens,
      };
    });
  }

  protected async runSuggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestReply> {
    const body = await this.respond(buildSuggestPrompt(request, new Date()), true, signal);
    const tokens = this.tokens(body);
    return this.withTokens(tokens, () => {
      this.assertCompleted(body);
      return {
        suggestion: parseSuggestText(responsesText(body), request, incompleteHint(body)),
        tokens,
      };
    });
  }

  /** One call, with the web search tool forced unless `search` is false (a page check). */
  private respond(prompt: ModelPrompt, search: boolean, signal?: AbortSignal): Promise<unknown> {
    const { url, apiKey, searchOptions } = this.endpoint();
    return this.http.requestJson({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${apiKey}` },
      secret: apiKey,
      signal,
      body: {
        model: this.model,
        instructions: prompt.systemInstruction,
        input: prompt.userText,
        ...(search ? { tools: [{ type: 'web_search' }], ...searchOptions } : {}),
      },
    });
  }
}
