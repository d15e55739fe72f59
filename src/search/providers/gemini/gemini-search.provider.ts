import { buildCheckPrompt, buildSuggestPrompt, type ModelPrompt } from '../../check-prompts';
import {
  asRecord,
  parseCheckText,
  parseSuggestText,
  uniqueSources,
  unparseable,
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
import {
  DEFAULT_GEMINI_MODEL,
  GEMINI_VARIABLES,
  readGeminiConfig,
  type GeminiConfig,
} from './gemini-search.config';

/** Gemini 2.5 Flash list price (README, "Search providers"): grounding is billed per grounded prompt. */
export const GEMINI_LIST_PRICE: ListPrice = {
  model: DEFAULT_GEMINI_MODEL,
  prices: { inputPerMTok: 0.3, outputPerMTok: 2.5, perSearch: 0.035 },
};

/** Finish reasons that mean Gemini withheld its answer rather than ran out of room. */
const BLOCKING_FINISH_REASONS = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
]);

/**
 * The Gemini adapter: one `generateContent` call with Google Search
 * grounding per check or suggestion; a page check's call has no `tools`.
 */
export class GeminiSearchProvider extends HttpSearchProvider<ProviderSettings & GeminiConfig> {
  readonly name = 'gemini';
  readonly http = this.httpClient('Gemini API');

  constructor(
    config: ProviderSettings & GeminiConfig,
    http: ProviderHttp,
    warn: (message: string) => void,
  ) {
    super(config, config.gemini.model.replace(/^models\//, ''), GEMINI_LIST_PRICE, http, warn);
  }

  isConfigured(): boolean {
    return this.config.gemini.apiKey !== null;
  }

  protected async runCheck(request: CheckRequest, signal?: AbortSignal): Promise<CheckReply> {
    const search = request.pages === undefined;
    const body = await this.generateContent(
      buildCheckPrompt(request, this.config.scheduler),
      search,
      signal,
    );
    const tokens = geminiTokens(body, search);
    return this.withTokens(tokens, () => {
      const [text, hint] = replyText(body);
      return {
        ...parseCheckText(text, request.now, hint),
        groundingSources: groundingSources(body),
        tokens,
      };
    });
  }

  protected async runSuggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestReply> {
    const body = await this.generateContent(buildSuggestPrompt(request, new Date()), true, signal);
    const tokens = geminiTokens(body, true);
    return this.withTokens(tokens, () => {
      const [text, hint] = replyText(body);
      return { suggestion: parseSuggestText(text, request, hint), tokens };
    });
  }

  /** One call, grounded with Google Search unless `search` is false (a page check). */
  private generateContent(
    prompt: ModelPrompt,
    search: boolean,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const apiKey = this.config.gemini.apiKey ?? '';
    return this.http.requestJson({
      method: 'POST',
      url: `${this.config.gemini.baseUrl}/v1beta/models/${encodeURIComponent(this.model)}:generateContent`,
      headers: { 'x-goog-api-key': apiKey },
      secret: apiKey,
      signal,
      body: {
        systemInstruction: { parts: [{ text: prompt.systemInstruction }] },
        contents: [{ role: 'user', parts: [{ text: prompt.userText }] }],
        ...(search ? { tools: [{ google_search: {} }] } : {}),
        generationConfig: { temperature: 0.2 },
      },
    });
  }
}

function firstCandidate(body: unknown): Record<string, unknown> | null {
  const candidates = asRecord(body)?.candidates;
  return Array.isArray(candidates) ? asRecord(candidates[0]) : null;
}

/**
 * The text of `candidates[0].content.parts[*].text`, concatenated (Gemini may split one answer
 * over several parts, and thinking models add parts marked `thought: true`), with a hint naming
 * the finish reason when the reply stopped early.
 */
export function replyText(body: unknown): [string, string] {
  const root = asRecord(body);
  if (root === null) throw unparseable('the response body is not a JSON object');
  const blockReason = asRecord(root.promptFeedback)?.blockReason;
  if (typeof blockReason === 'string' && blockReason !== '') {
    throw new ProviderError(`Gemini blocked the request (block reason: ${blockReason})`);
  }
  const candidate = firstCandidate(root);
  if (candidate === null) throw unparseable('the response has no candidates');
  const finishReason = typeof candidate.finishReason === 'string' ? candidate.finishReason : null;
  if (finishReason !== null && BLOCKING_FINISH_REASONS.has(finishReason)) {
    throw new ProviderError(`Gemini blocked its reply (finish reason: ${finishReason})`);
  }
  const parts = asRecord(candidate.content)?.parts;
  const text = (Array.isArray(parts) ? parts : [])
    .map(asRecord)
    .map((part) => (part !== null && part.thought !== true ? part.text : undefined))
    .filter((partText): partText is string => typeof partText === 'string')
    .join('');
  const hint =
    finishReason !== null && finishReason !== 'STOP' ? ` (finish reason: ${finishReason})` : '';
  return [text, hint];
}

/** Sources from `candidates[0].groundingMetadata.groundingChunks[*].web`, one per uri. */
export function groundingSources(body: unknown): GroundingSource[] {
  const chunks = asRecord(firstCandidate(body)?.groundingMetadata)?.groundingChunks;
  if (!Array.isArray(chunks)) return [];
  return uniqueSources(
    chunks.map((chunk) => {
      const web = asRecord(asRecord(chunk)?.web);
      return { uri: web?.uri, title: web?.title };
    }),
  );
}

/** `usageMetadata`: thinking tokens are billed as output; one search per grounded call. */
export function geminiTokens(body: unknown, grounded: boolean): TokenUsage {
  const metadata = asRecord(asRecord(body)?.usageMetadata);
  return {
    inputTokens: tokenCount(metadata?.promptTokenCount),
    outputTokens:
      tokenCount(metadata?.candidatesTokenCount) + tokenCount(metadata?.thoughtsTokenCount),
    searchCalls: grounded ? 1 : 0,
  };
}

export const geminiSearchProvider = defineSearchProvider({
  name: 'gemini',
  label: 'Gemini',
  variables: GEMINI_VARIABLES,
  readConfig: readGeminiConfig,
  secrets: {
    fields: ['apiKey'],
    shapes: [{ pattern: /\bAIza[0-9A-Za-z_-]{35}/g, mask: 'AIza[Redacted]', clue: /AIza/ }],
  },
  create: (...args) => new GeminiSearchProvider(...args),
});
