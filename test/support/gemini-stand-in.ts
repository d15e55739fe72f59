import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ProviderUsage } from '../../src/search/provider-usage';
import {
  checkAnswer,
  checkText,
  hostnameOf,
  parseJsonObject,
  promptKind,
  STAND_IN_TOKENS,
  suggestText,
  WireStandIn,
  type CheckReplyOptions,
  type Described,
  type HttpReply,
  type RecordedRequest,
  type StandInReply,
  type SuggestReplyOptions,
  type TextReply,
} from './wire-stand-in';

export type { CheckReplyOptions, SuggestReplyOptions } from './wire-stand-in';
export type GeminiReply = StandInReply;
export type GeminiHttpReply = HttpReply;

/** The request fields the stand-in reads; everything else is kept as sent. */
export interface GeminiRequestBody {
  contents?: Array<{ role?: string; parts?: Array<{ text?: string }> }>;
  systemInstruction?: { parts?: Array<{ text?: string }> };
  system_instruction?: { parts?: Array<{ text?: string }> };
  tools?: Array<Record<string, unknown>>;
  generationConfig?: Record<string, unknown>;
  [field: string]: unknown;
}

/** One generateContent request; `model` is the `{model}` path segment. */
export type RecordedGeminiRequest = RecordedRequest<GeminiRequestBody>;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const DEFAULT_ERROR_MESSAGES: Record<number, string> = {
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  503: 'The model is overloaded. Please try again later.',
};

/** Google's error body: `{"error": {"code", "message", "status"}}`. */
export function geminiErrorBody(status: number, message?: string): unknown {
  return {
    error: {
      code: status,
      message: message ?? DEFAULT_ERROR_MESSAGES[status] ?? `HTTP ${status}`,
      status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
    },
  };
}

/** An HTTP error reply in Gemini's shape. */
export function errorReply(
  status: number,
  message?: string,
  headers?: Record<string, string>,
): HttpReply {
  return { status, body: geminiErrorBody(status, message), headers };
}

/** A realistic 200 generateContent body with one candidate saying `text`. */
export function candidateBody(
  text: string,
  options: {
    finishReason?: string;
    groundingMetadata?: Record<string, unknown>;
    splitParts?: boolean;
    modelVersion?: string;
  } = {},
): unknown {
  const middle = Math.floor(text.length / 2);
  const parts = options.splitParts
    ? [{ text: text.slice(0, middle) }, { text: text.slice(middle) }]
    : [{ text }];
  return {
    candidates: [
      {
        content: { parts, role: 'model' },
        finishReason: options.finishReason ?? 'STOP',
        index: 0,
        ...(options.groundingMetadata ? { groundingMetadata: options.groundingMetadata } : {}),
      },
    ],
    usageMetadata: {
      promptTokenCount: STAND_IN_TOKENS.input,
      candidatesTokenCount: STAND_IN_TOKENS.output,
      totalTokenCount: STAND_IN_TOKENS.input + STAND_IN_TOKENS.output,
    },
    modelVersion: options.modelVersion ?? 'gemini-2.5-flash',
    responseId: randomUUID().replace(/-/g, '').slice(0, 22),
  };
}

/**
 * A grounded check answer: the JSON object the check prompt asks for plus groundingMetadata with
 * chunks, supports and the search queries, the way Gemini returns them.
 */
export function checkReply(options: CheckReplyOptions = {}): HttpReply {
  const text = checkText(options);
  const answer = checkAnswer(options);
  const sources = options.sources ?? [];
  const answerStart = Math.max(0, text.indexOf(answer));
  const groundingMetadata = {
    webSearchQueries: options.webSearchQueries ?? ['latest news'],
    searchEntryPoint: {
      renderedContent: '<style>.container{}</style><div class="container"></div>',
    },
    groundingChunks: sources.map((source) => ({
      web: { uri: source.uri, title: source.title ?? hostnameOf(source.uri) },
    })),
    groundingSupports:
      sources.length === 0
        ? []
        : [
            {
              segment: {
                startIndex: answerStart,
                endIndex: answerStart + answer.length,
                text: answer,
              },
              groundingChunkIndices: sources.map((_, index) => index),
              confidenceScores: sources.map(() => 0.9),
            },
          ],
  };
  return {
    status: 200,
    body: candidateBody(text, {
      groundingMetadata,
      splitParts: options.splitParts,
      modelVersion: options.modelVersion,
    }),
  };
}

/** A suggestion answer with the fields the suggest prompt asks for. */
export function suggestReply(options: SuggestReplyOptions = {}): HttpReply {
  return { status: 200, body: candidateBody(suggestText(options)) };
}

/** A 200 whose model text is exactly `text` (for unparseable or hand-written replies). */
export function textReply(text: string, finishReason?: string): TextReply {
  return { text, finishReason };
}

const ROUTE = /^\/v1beta\/models\/([^/:]+):generateContent$/;

function joinTexts(parts: Array<{ text?: string }> | undefined): string {
  return (parts ?? [])
    .map((part) => part.text)
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}

/** A stand-in for the Gemini API speaking the `generateContent` wire format. */
export class GeminiStandIn extends WireStandIn<RecordedGeminiRequest> {
  readonly callsPerCheck = 1;
  /** The default model's list price: 1200 × 0.30/M + 300 × 2.50/M + one grounded prompt at 0.035. */
  readonly checkUsage: ProviderUsage = {
    provider: 'gemini',
    model: 'gemini-2.5-flash',
    input_tokens: STAND_IN_TOKENS.input,
    output_tokens: STAND_IN_TOKENS.output,
    search_calls: 1,
    cost_usd: 0.03611,
  };

  constructor(readonly apiKey = `test-gemini-key-${randomUUID()}`) {
    super();
  }

  env(): Record<string, string> {
    return {
      SEARCH_PROVIDER: 'gemini',
      GEMINI_API_KEY: this.apiKey,
      GEMINI_BASE_URL: this.baseUrl,
    };
  }

  /** Each `tools` entry is named by its one key (`{"google_search": {}}`). */
  searchTools(request: RecordedGeminiRequest): string[] {
    return (request.body.tools ?? []).flatMap((tool) => Object.keys(tool));
  }

  defaultReply(request: RecordedGeminiRequest): StandInReply {
    return request.kind === 'suggest' ? suggestReply() : checkReply();
  }

  checkReply(options?: CheckReplyOptions): StandInReply {
    return checkReply(options);
  }

  suggestReply(options?: SuggestReplyOptions): StandInReply {
    return suggestReply(options);
  }

  errorReply(status: number, message?: string, headers?: Record<string, string>): HttpReply {
    return errorReply(status, message, headers);
  }

  protected textBody(text: string, finishReason?: string): unknown {
    return candidateBody(text, { finishReason });
  }

  protected errorBody(status: number, message?: string): unknown {
    return geminiErrorBody(status, message);
  }

  protected describe(request: IncomingMessage, rawBody: string): Described<RecordedGeminiRequest> {
    const path = (request.url ?? '').split('?')[0];
    const match = ROUTE.exec(path);
    if (match === null) return { refusal: errorReply(404, 'Not Found') };
    if (request.method !== 'POST') return { refusal: errorReply(405, 'Method Not Allowed') };
    const body = parseJsonObject<GeminiRequestBody>(rawBody);
    const key = request.headers['x-goog-api-key'];
    const authorized = typeof key === 'string' && key === this.apiKey;
    const systemText = joinTexts((body?.systemInstruction ?? body?.system_instruction)?.parts);
    const promptText = (body?.contents ?? []).map((content) => joinTexts(content.parts)).join('\n');
    const recorded: RecordedGeminiRequest = {
      path,
      model: decodeURIComponent(match[1]),
      body: body ?? {},
      headers: request.headers,
      receivedAt: Date.now(),
      promptText,
      systemText,
      kind: promptKind(systemText, promptText),
      authorized,
    };
    if (typeof key !== 'string' || key === '') {
      return {
        recorded,
        refusal: errorReply(
          401,
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        ),
      };
    }
    if (!authorized) {
      return {
        recorded,
        refusal: errorReply(403, 'API key not valid. Please pass a valid API key.'),
      };
    }
    if (body === null)
      return { recorded, refusal: errorReply(400, 'Invalid JSON payload received.') };
    return { recorded };
  }
}
