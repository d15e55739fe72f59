import type { IncomingMessage } from 'node:http';
import type { ProviderUsage } from '../../src/search/provider-usage';
import {
  bearerMatches,
  checkText,
  parseJsonObject,
  promptKind,
  STAND_IN_TOKENS,
  suggestText,
  toolTypes,
  WireStandIn,
  type CheckReplyOptions,
  type Described,
  type HttpReply,
  type RecordedRequest,
  type StandInReply,
  type SuggestReplyOptions,
} from './wire-stand-in';

/** The results every search answers unless a test queues others. */
export const SEARCH_RESULTS = [
  { uri: 'https://a.example/release', title: 'Release notes' },
  { uri: 'https://b.example/news', title: 'b.example' },
  { uri: 'https://c.example/blog', title: 'c.example' },
];

/** The prices the SearXNG tests configure: a local model has none built in. */
export const SEARXNG_TEST_PRICES = { PRICE_INPUT_PER_MTOK: '1', PRICE_OUTPUT_PER_MTOK: '2' };

/** SearXNG's `/search?format=json` answer. */
export function searchResultsReply(
  results: Array<{ uri: string; title: string }> = SEARCH_RESULTS,
  unresponsiveEngines: Array<[string, string]> = [],
): HttpReply {
  return {
    status: 200,
    body: {
      query: 'stand-in',
      number_of_results: 0,
      results: results.map((result, index) => ({
        url: result.uri,
        title: result.title,
        content: `What ${result.title} says about it.`,
        engine: 'duckduckgo',
        engines: ['duckduckgo'],
        positions: [index + 1],
        score: 1 / (index + 1),
        category: 'general',
      })),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: unresponsiveEngines,
    },
  };
}

/** An OpenAI-compatible `chat/completions` answer saying `text`. */
export function chatCompletionBody(text: string, finishReason = 'stop'): unknown {
  return {
    id: 'chatcmpl-stand-in',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'qwen3:8b',
    choices: [
      { index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason },
    ],
    usage: {
      prompt_tokens: STAND_IN_TOKENS.input,
      completion_tokens: STAND_IN_TOKENS.output,
      total_tokens: STAND_IN_TOKENS.input + STAND_IN_TOKENS.output,
    },
  };
}

/** Ollama's and llama.cpp's error body; SearXNG answers its errors as text. */
function chatErrorBody(status: number, message?: string): unknown {
  return { error: { message: message ?? `HTTP ${status}`, type: 'server_error', code: status } };
}

/**
 * One server standing in for both a SearXNG instance (`GET /search?format=json`) and an
 * OpenAI-compatible chat server (`POST /v1/chat/completions`). Search
 * requests are recorded with kind `search` and the query as their prompt.
 */
export class SearxngStandIn extends WireStandIn {
  readonly callsPerCheck = 2;
  /** 1200 × 1/M + 300 × 2/M with the test prices, and SearXNG's search for free. */
  readonly checkUsage: ProviderUsage = {
    provider: 'searxng',
    model: 'qwen3:8b',
    input_tokens: STAND_IN_TOKENS.input,
    output_tokens: STAND_IN_TOKENS.output,
    search_calls: 1,
    cost_usd: 0.0018,
  };

  constructor(readonly apiKey = 'ollama-test-key') {
    super();
  }

  env(): Record<string, string> {
    return {
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: this.baseUrl,
      LLM_BASE_URL: `${this.baseUrl}/v1`,
      LLM_API_KEY: this.apiKey,
      LLM_MODEL: 'qwen3:8b',
      ...SEARXNG_TEST_PRICES,
    };
  }

  /** A query to SearXNG is a search; a chat completion searches only through its `tools`. */
  searchTools(request: RecordedRequest): string[] {
    return request.kind === 'search' ? ['searxng'] : toolTypes(request.body);
  }

  defaultReply(request: RecordedRequest): StandInReply {
    if (request.kind === 'search') return searchResultsReply();
    return request.kind === 'suggest' ? this.suggestReply() : this.checkReply();
  }

  /** Cites the default search results that `sources` names (none: cites nothing). */
  checkReply(options: CheckReplyOptions = {}): HttpReply {
    const sourceIds = (options.sources ?? []).map(
      (source) => SEARCH_RESULTS.findIndex((result) => result.uri === source.uri) + 1,
    );
    return { status: 200, body: chatCompletionBody(checkText(options, { source_ids: sourceIds })) };
  }

  suggestReply(options: SuggestReplyOptions = {}): HttpReply {
    return { status: 200, body: chatCompletionBody(suggestText(options)) };
  }

  errorReply(status: number, message?: string, headers?: Record<string, string>): HttpReply {
    return { status, body: chatErrorBody(status, message), headers };
  }

  protected textBody(text: string, finishReason?: string): unknown {
    return chatCompletionBody(text, finishReason);
  }

  protected errorBody(status: number, message?: string): unknown {
    return chatErrorBody(status, message);
  }

  protected describe(request: IncomingMessage, rawBody: string): Described<RecordedRequest> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const common = { path: url.pathname, headers: request.headers, receivedAt: Date.now() };
    if (url.pathname === '/search' && request.method === 'GET') {
      const format = url.searchParams.get('format');
      const recorded: RecordedRequest = {
        ...common,
        model: '',
        body: {},
        promptText: url.searchParams.get('q') ?? '',
        systemText: '',
        kind: 'search',
        authorized: true,
      };
      // SearXNG refuses formats its settings do not enable.
      return format === 'json'
        ? { recorded }
        : { recorded, refusal: { status: 403, body: 'Forbidden' } };
    }
    if (url.pathname !== '/v1/chat/completions' || request.method !== 'POST') {
      return { refusal: { status: 404, body: chatErrorBody(404, 'Not Found') } };
    }
    const body = parseJsonObject(rawBody);
    const messages = Array.isArray(body?.messages)
      ? (body.messages as Array<{ role?: string; content?: unknown }>)
      : [];
    const textOf = (role: string) =>
      messages
        .filter((message) => message.role === role && typeof message.content === 'string')
        .map((message) => message.content as string)
        .join('\n');
    const systemText = textOf('system');
    const promptText = textOf('user');
    const authorized = bearerMatches(request.headers, this.apiKey) === true;
    const recorded: RecordedRequest = {
      ...common,
      model: typeof body?.model === 'string' ? body.model : '',
      body: body ?? {},
      promptText,
      systemText,
      kind: promptKind(systemText, promptText),
      authorized,
    };
    if (!authorized)
      return { recorded, refusal: { status: 401, body: chatErrorBody(401, 'Invalid API key') } };
    if (body === null)
      return { recorded, refusal: { status: 400, body: chatErrorBody(400, 'Invalid JSON') } };
    return { recorded };
  }
}
