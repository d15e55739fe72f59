import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One generateContent request as the stand-in received it. */
export interface RecordedGeminiRequest {
  /** The `{model}` path segment, e.g. `gemini-2.5-flash`. */
  model: string;
  /** The parsed JSON body (`contents`, `tools`, `systemInstruction`, `generationConfig`). */
  body: GeminiRequestBody;
  headers: IncomingHttpHeaders;
  /** `Date.now()` on arrival, to assert backoff spacing. */
  receivedAt: number;
  /** Every `contents[*].parts[*].text`, joined with newlines. */
  promptText: string;
  /** Every `systemInstruction.parts[*].text`, joined with newlines ('' when absent). */
  systemText: string;
  /** `suggest` when the prompt asks for a task configuration, otherwise `check`. */
  kind: 'check' | 'suggest';
  /** false when the stand-in rejected the API key (401/403) instead of answering. */
  authorized: boolean;
}

/** The request fields the stand-in reads; everything else is kept as sent. */
export interface GeminiRequestBody {
  contents?: Array<{ role?: string; parts?: Array<{ text?: string }> }>;
  systemInstruction?: { parts?: Array<{ text?: string }> };
  system_instruction?: { parts?: Array<{ text?: string }> };
  tools?: Array<Record<string, unknown>>;
  generationConfig?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Any HTTP answer: a status, an optional JSON (or string) body and headers. */
export interface GeminiHttpReply {
  status: number;
  /** Omitted for an error status: a Gemini-shaped `{"error": ...}` body is generated. */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A 200 whose single candidate says `text`, with no grounding metadata. */
export interface GeminiTextReply {
  text: string;
  finishReason?: string;
  delayMs?: number;
}

/** Waits, then answers with `then` (or the default reply). */
export interface GeminiDelayReply {
  delayMs: number;
  then?: GeminiReply;
}

/** Destroys the socket without answering, which a client sees as a network error. */
export interface GeminiDropReply {
  dropConnection: true;
}

export type GeminiReply = GeminiHttpReply | GeminiTextReply | GeminiDelayReply | GeminiDropReply;

export type GeminiReplyHandler = (
  request: RecordedGeminiRequest,
) => GeminiReply | Promise<GeminiReply>;

export interface CheckReplyOptions {
  conditionMet?: boolean;
  answer?: string;
  reasoning?: string;
  currentState?: Record<string, unknown>;
  /** Default: one hour from now. `null` sends `"next_check_at": null`. */
  nextCheckAt?: Date | string | null;
  sources?: Array<{ uri: string; title?: string }>;
  webSearchQueries?: string[];
  /** Wrap the JSON in a Markdown ```json fence, as models often do. */
  fenced?: boolean;
  /** Surround the JSON with sentences, as models sometimes do. */
  prose?: boolean;
  /** Split the text over two parts, as streaming-trained models sometimes do. */
  splitParts?: boolean;
  modelVersion?: string;
}

export interface SuggestReplyOptions {
  name?: string;
  searchQuery?: string;
  conditionDescription?: string;
  schedule?: string;
  notifyBehavior?: string;
  fenced?: boolean;
  prose?: boolean;
}

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
): GeminiHttpReply {
  return { status, body: geminiErrorBody(status, message), headers };
}

function hostnameOf(uri: string): string {
  try {
    return new URL(uri).hostname;
  } catch {
    return uri;
  }
}

function dressText(json: string, options: { fenced?: boolean; prose?: boolean }): string {
  let text = options.fenced ? `\`\`\`json\n${json}\n\`\`\`` : json;
  if (options.prose) {
    text = `Here is the result of my search {as requested}:\n\n${text}\n\nLet me know if you need anything else.`;
  }
  return text;
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
  const promptTokenCount = 240;
  const candidatesTokenCount = Math.ceil(text.length / 4);
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
      promptTokenCount,
      candidatesTokenCount,
      totalTokenCount: promptTokenCount + candidatesTokenCount,
    },
    modelVersion: options.modelVersion ?? 'gemini-2.5-flash',
    responseId: randomUUID().replace(/-/g, '').slice(0, 22),
  };
}

/**
 * A grounded check answer: the JSON object of contract section 3 plus groundingMetadata with
 * chunks, supports and the search queries, the way Gemini returns them.
 */
export function checkReply(options: CheckReplyOptions = {}): GeminiHttpReply {
  const nextCheckAt =
    options.nextCheckAt === undefined
      ? new Date(Date.now() + 3_600_000).toISOString()
      : options.nextCheckAt instanceof Date
        ? options.nextCheckAt.toISOString()
        : options.nextCheckAt;
  const answer = options.answer ?? 'No new information matching the condition was found.';
  const json = JSON.stringify(
    {
      condition_met: options.conditionMet ?? false,
      answer,
      reasoning: options.reasoning ?? 'The search results do not show the condition being met yet.',
      current_state: options.currentState ?? {},
      next_check_at: nextCheckAt,
    },
    null,
    2,
  );
  const text = dressText(json, options);
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

/** A suggestion answer with the fields of contract section 3, "Suggest". */
export function suggestReply(options: SuggestReplyOptions = {}): GeminiHttpReply {
  const json = JSON.stringify(
    {
      name: options.name ?? 'Example release watch',
      search_query: options.searchQuery ?? 'Example product release date announcement',
      condition_description:
        options.conditionDescription ?? 'The release date of the example product is announced',
      schedule: options.schedule ?? '0 9 * * *',
      notify_behavior: options.notifyBehavior ?? 'once',
    },
    null,
    2,
  );
  return { status: 200, body: candidateBody(dressText(json, options)) };
}

/** A 200 whose model text is exactly `text` (for unparseable or hand-written replies). */
export function textReply(text: string, finishReason?: string): GeminiTextReply {
  return { text, finishReason };
}

const ROUTE = /^\/v1beta\/models\/([^/:]+):generateContent$/;

function joinTexts(parts: Array<{ text?: string }> | undefined): string {
  return (parts ?? [])
    .map((part) => part.text)
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}

/**
 * A local stand-in for the Gemini API on 127.0.0.1 that speaks the `generateContent` wire
 * format, so tests exercise the real provider and its HTTP client. Replies come from the
 * one-shot queue (`enqueue`) first, then from the default handler (`respondWith`), which out
 * of the box answers a check with "condition not met, next check in one hour".
 */
export class GeminiStandIn {
  /** Requests in arrival order, at most `maxRecordedRequests` (oldest dropped first). */
  readonly requests: RecordedGeminiRequest[] = [];
  /** Benchmarks turn this off so a long run keeps no history. */
  recordRequests = true;
  maxRecordedRequests = 1_000;
  /** Counts every generateContent request, recorded or not. */
  requestCount = 0;
  baseUrl = '';

  private server: Server | null = null;
  private readonly queue: Array<GeminiReply | GeminiReplyHandler> = [];
  private handler: GeminiReplyHandler = GeminiStandIn.defaultHandler;
  /** Pending delays, resolved early by `stop()` so no reply outlives the server. */
  private readonly delays = new Map<NodeJS.Timeout, () => void>();

  constructor(readonly apiKey = `test-gemini-key-${randomUUID()}`) {}

  /** Realistic defaults: a check is "not met, next check in an hour"; a suggestion is generic. */
  static defaultHandler(this: void, request: RecordedGeminiRequest): GeminiReply {
    return request.kind === 'suggest' ? suggestReply() : checkReply();
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      // A client that hangs up mid-body must not become an unhandled rejection.
      this.serve(request, response).catch(() => response.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    const { port } = server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const [timer, resolve] of this.delays) {
      clearTimeout(timer);
      resolve();
    }
    this.delays.clear();
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Forgets recorded requests and queued replies and restores the default handler. */
  reset(): this {
    this.requests.length = 0;
    this.queue.length = 0;
    this.requestCount = 0;
    this.handler = GeminiStandIn.defaultHandler;
    return this;
  }

  /** Sets the reply used whenever the queue is empty. */
  respondWith(reply: GeminiReply | GeminiReplyHandler): this {
    this.handler = typeof reply === 'function' ? reply : () => reply;
    return this;
  }

  /** Queues one-shot replies, consumed one per request in order. */
  enqueue(...replies: Array<GeminiReply | GeminiReplyHandler>): this {
    this.queue.push(...replies);
    return this;
  }

  get pendingReplies(): number {
    return this.queue.length;
  }

  get lastRequest(): RecordedGeminiRequest | undefined {
    return this.requests[this.requests.length - 1];
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const match = ROUTE.exec((request.url ?? '').split('?')[0]);
    if (match === null) {
      await drain(request);
      return send(response, { status: 404, body: geminiErrorBody(404, 'Not Found') });
    }
    if (request.method !== 'POST') {
      await drain(request);
      return send(response, { status: 405, body: geminiErrorBody(405, 'Method Not Allowed') });
    }
    const body = parseJsonObject(await readBody(request));
    const key = request.headers['x-goog-api-key'];
    const authorized = typeof key === 'string' && key === this.apiKey;
    const systemText = joinTexts((body?.systemInstruction ?? body?.system_instruction)?.parts);
    const promptText = (body?.contents ?? []).map((content) => joinTexts(content.parts)).join('\n');
    const recorded: RecordedGeminiRequest = {
      model: decodeURIComponent(match[1]),
      body: body ?? {},
      headers: request.headers,
      receivedAt: Date.now(),
      promptText,
      systemText,
      kind: `${systemText}\n${promptText}`.includes('notify_behavior') ? 'suggest' : 'check',
      authorized,
    };
    // Rejected requests are recorded too, so a test can see that a bad key was not retried.
    this.requestCount++;
    if (this.recordRequests) {
      this.requests.push(recorded);
      if (this.requests.length > this.maxRecordedRequests) this.requests.shift();
    }

    if (typeof key !== 'string' || key === '') {
      return send(response, {
        status: 401,
        body: geminiErrorBody(
          401,
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        ),
      });
    }
    if (!authorized) {
      return send(response, {
        status: 403,
        body: geminiErrorBody(403, 'API key not valid. Please pass a valid API key.'),
      });
    }
    if (body === null) {
      return send(response, {
        status: 400,
        body: geminiErrorBody(400, 'Invalid JSON payload received.'),
      });
    }

    const next = this.queue.shift() ?? this.handler;
    let reply: GeminiReply;
    try {
      reply = typeof next === 'function' ? await next(recorded) : next;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reply = errorReply(500, `Stand-in handler failed: ${message}`);
    }
    await this.answer(recorded, reply, response);
  }

  private async answer(
    recorded: RecordedGeminiRequest,
    reply: GeminiReply,
    response: ServerResponse,
  ): Promise<void> {
    if ('dropConnection' in reply) {
      response.socket?.destroy();
      return;
    }
    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      await this.wait(reply.delayMs);
      if (response.destroyed || this.server === null) return;
    }
    if ('text' in reply) {
      return send(response, {
        status: 200,
        body: candidateBody(reply.text, { finishReason: reply.finishReason }),
      });
    }
    if ('status' in reply) return send(response, reply);
    // A bare delay: answer with what comes next (which may add a delay of its own).
    return this.answer(recorded, reply.then ?? GeminiStandIn.defaultHandler(recorded), response);
  }

  private wait(delayMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.delays.delete(timer);
        resolve();
      }, delayMs);
      this.delays.set(timer, resolve);
    });
  }
}

function send(response: ServerResponse, reply: GeminiHttpReply): void {
  if (response.destroyed || response.headersSent) return;
  const body =
    reply.body === undefined && reply.status >= 400 ? geminiErrorBody(reply.status) : reply.body;
  const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(reply.status, {
    'content-type':
      typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=UTF-8',
    ...reply.headers,
  });
  response.end(payload);
}

function parseJsonObject(raw: string): GeminiRequestBody | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as GeminiRequestBody)
      : null;
  } catch {
    return null;
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

async function drain(request: IncomingMessage): Promise<void> {
  await readBody(request);
}
