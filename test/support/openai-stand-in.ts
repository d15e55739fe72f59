import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ProviderUsage } from '../../src/search/provider-usage';
import {
  bearerMatches,
  checkText,
  hostnameOf,
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

/** OpenAI's error body: `{"error": {"message", "type", "param", "code"}}`. */
export function openAiErrorBody(status: number, message?: string): unknown {
  const type =
    status === 429
      ? 'rate_limit_exceeded'
      : status >= 500
        ? 'server_error'
        : 'invalid_request_error';
  return {
    error: {
      message: message ?? `The server had an error (HTTP ${status}).`,
      type,
      param: null,
      code: null,
    },
  };
}

interface ResponseOptions {
  text: string;
  sources?: Array<{ uri: string; title?: string }>;
  searches?: number;
  status?: string;
  /** Extra output items placed before the message (Perplexity's `search_results`). */
  items?: unknown[];
  usage?: Record<string, unknown>;
}

/**
 * A Responses API body: web search calls, then the assistant message whose `output_text`
 * carries `url_citation` annotations (OpenAI's Responses format, which Perplexity's Agent API
 * follows too).
 */
export function responsesBody(options: ResponseOptions): Record<string, unknown> {
  const sources = options.sources ?? [];
  const searches = options.searches ?? 1;
  const cited = sources.slice(0, 1);
  const calls = Array.from({ length: searches }, (_, index) => ({
    id: `ws_${randomUUID().replace(/-/g, '')}`,
    type: 'web_search_call',
    status: 'completed',
    action: {
      type: 'search',
      query: `query ${index + 1}`,
      sources: sources.slice(1).map((source) => ({ type: 'url', url: source.uri })),
    },
  }));
  return {
    id: `resp_${randomUUID().replace(/-/g, '')}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: options.status ?? 'completed',
    error: null,
    incomplete_details: null,
    model: 'gpt-5-mini-2025-08-07',
    output: [
      ...calls,
      ...(options.items ?? []),
      {
        id: `msg_${randomUUID().replace(/-/g, '')}`,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: options.text,
            annotations: cited.map((source) => ({
              type: 'url_citation',
              start_index: 0,
              end_index: 10,
              url: source.uri,
              title: source.title ?? hostnameOf(source.uri),
            })),
          },
        ],
      },
    ],
    usage: options.usage ?? {
      input_tokens: STAND_IN_TOKENS.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: STAND_IN_TOKENS.output,
      output_tokens_details: { reasoning_tokens: 120 },
      total_tokens: STAND_IN_TOKENS.input + STAND_IN_TOKENS.output,
    },
  };
}

/** A request to a Responses-style API: `instructions` is the system text, `input` the turn. */
export function describeResponsesRequest(
  request: IncomingMessage,
  rawBody: string,
  route: string,
  apiKey: string,
  errorBody: (status: number, message: string) => unknown,
): Described<RecordedRequest> {
  const path = (request.url ?? '').split('?')[0];
  if (path !== route)
    return { refusal: { status: 404, body: errorBody(404, `Not found: ${path}`) } };
  if (request.method !== 'POST')
    return { refusal: { status: 405, body: errorBody(405, 'Method not allowed') } };
  const body = parseJsonObject(rawBody);
  const authorized = bearerMatches(request.headers, apiKey);
  const systemText = typeof body?.instructions === 'string' ? body.instructions : '';
  const promptText =
    typeof body?.input === 'string' ? body.input : JSON.stringify(body?.input ?? '');
  const recorded: RecordedRequest = {
    path,
    model: typeof body?.model === 'string' ? body.model : '',
    body: body ?? {},
    headers: request.headers,
    receivedAt: Date.now(),
    promptText,
    systemText,
    kind: promptKind(systemText, promptText),
    authorized: authorized === true,
  };
  if (authorized !== true) {
    return {
      recorded,
      refusal: { status: 401, body: errorBody(401, 'Incorrect API key provided.') },
    };
  }
  if (body === null)
    return {
      recorded,
      refusal: {
        status: 400,
        body: errorBody(400, 'We could not parse the JSON body of your request.'),
      },
    };
  return { recorded };
}

/** A stand-in for OpenAI's Responses API (`POST /v1/responses`). */
export class OpenAiStandIn extends WireStandIn {
  readonly callsPerCheck = 1;
  /** gpt-5-mini's list price: 1200 × 0.25/M + 300 × 2.00/M + one search at 0.01. */
  readonly checkUsage: ProviderUsage = {
    provider: 'openai',
    model: 'gpt-5-mini',
    input_tokens: STAND_IN_TOKENS.input,
    output_tokens: STAND_IN_TOKENS.output,
    search_calls: 1,
    cost_usd: 0.0109,
  };

  constructor(readonly apiKey = `sk-test-${randomUUID()}`) {
    super();
  }

  env(): Record<string, string> {
    return {
      SEARCH_PROVIDER: 'openai',
      OPENAI_API_KEY: this.apiKey,
      OPENAI_BASE_URL: `${this.baseUrl}/v1`,
    };
  }

  searchTools(request: RecordedRequest): string[] {
    return toolTypes(request.body);
  }

  defaultReply(request: RecordedRequest): StandInReply {
    return request.kind === 'suggest' ? this.suggestReply() : this.checkReply();
  }

  checkReply(options: CheckReplyOptions = {}): HttpReply {
    return {
      status: 200,
      body: responsesBody({ text: checkText(options), sources: options.sources }),
    };
  }

  suggestReply(options: SuggestReplyOptions = {}): HttpReply {
    return { status: 200, body: responsesBody({ text: suggestText(options) }) };
  }

  errorReply(status: number, message?: string, headers?: Record<string, string>): HttpReply {
    return { status, body: openAiErrorBody(status, message), headers };
  }

  protected textBody(text: string): unknown {
    return responsesBody({ text });
  }

  protected errorBody(status: number, message?: string): unknown {
    return openAiErrorBody(status, message);
  }

  protected describe(request: IncomingMessage, rawBody: string): Described<RecordedRequest> {
    return describeResponsesRequest(
      request,
      rawBody,
      '/v1/responses',
      this.apiKey,
      openAiErrorBody,
    );
  }
}
