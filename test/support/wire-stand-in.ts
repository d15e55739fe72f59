import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { closeNow, listenOnLoopback } from './loopback';
import type { ProviderUsage } from '../../src/search/provider-usage';

/** One request as a stand-in received it, whatever the wire format. */
export interface RecordedRequest<Body = Record<string, unknown>> {
  /** The path without its query string. */
  path: string;
  /** The model the request names ('' for a search engine). */
  model: string;
  /** The parsed JSON body ({} for a GET). */
  body: Body;
  headers: IncomingHttpHeaders;
  /** `Date.now()` on arrival, to assert backoff spacing. */
  receivedAt: number;
  /** What the model is asked (the user turn), or the search query of a search engine. */
  promptText: string;
  /** The rules the model is given ('' when absent). */
  systemText: string;
  /** `search` for a search engine call; `suggest` when the prompt asks for a task configuration. */
  kind: 'check' | 'suggest' | 'search';
  /** false when the stand-in rejected the credentials (401/403) instead of answering. */
  authorized: boolean;
}

/** Any HTTP answer: a status, an optional JSON (or string) body and headers. */
export interface HttpReply {
  status: number;
  /** Omitted for an error status: the stand-in's own error body is generated. */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A 200 whose model text is exactly `text`, in the stand-in's wire format. */
export interface TextReply {
  text: string;
  finishReason?: string;
  delayMs?: number;
}

/** Waits, then answers with `then` (or the default reply). */
export interface DelayReply {
  delayMs: number;
  then?: StandInReply;
}

/** Destroys the socket without answering, which a client sees as a network error. */
export interface DropReply {
  dropConnection: true;
}

export type StandInReply = HttpReply | TextReply | DelayReply | DropReply;

export type ReplyHandler<R> = (request: R) => StandInReply | Promise<StandInReply>;

/** The fields of a check answer, in any wire format. */
export interface CheckReplyOptions {
  conditionMet?: boolean;
  answer?: string;
  reasoning?: string;
  currentState?: Record<string, unknown>;
  /** Default: one hour from now. `null` sends `"next_check_at": null`. */
  nextCheckAt?: Date | string | null;
  sources?: Array<{ uri: string; title?: string }>;
  /** `values` of a task with an output_schema; absent: the reply has none. */
  values?: unknown;
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

/** What every stand-in reports for one model call, so tests can assert the usage arithmetic. */
export const STAND_IN_TOKENS = { input: 1200, output: 300 };

export function dressText(json: string, options: { fenced?: boolean; prose?: boolean }): string {
  let text = options.fenced ? `\`\`\`json\n${json}\n\`\`\`` : json;
  if (options.prose) {
    text = `Here is the result of my search {as requested}:\n\n${text}\n\nLet me know if you need anything else.`;
  }
  return text;
}

/** The model's JSON text of a check answer, plus any extra fields (SearXNG's `source_ids`). */
export function checkText(options: CheckReplyOptions, extra: Record<string, unknown> = {}): string {
  const nextCheckAt =
    options.nextCheckAt === undefined
      ? new Date(Date.now() + 3_600_000).toISOString()
      : options.nextCheckAt instanceof Date
        ? options.nextCheckAt.toISOString()
        : options.nextCheckAt;
  const json = JSON.stringify(
    {
      condition_met: options.conditionMet ?? false,
      answer: checkAnswer(options),
      reasoning: options.reasoning ?? 'The search results do not show the condition being met yet.',
      current_state: options.currentState ?? {},
      next_check_at: nextCheckAt,
      ...(options.values === undefined ? {} : { values: options.values }),
      ...extra,
    },
    null,
    2,
  );
  return dressText(json, options);
}

export function checkAnswer(options: CheckReplyOptions): string {
  return options.answer ?? 'No new information matching the condition was found.';
}

export function suggestText(options: SuggestReplyOptions): string {
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
  return dressText(json, options);
}

export function hostnameOf(uri: string): string {
  try {
    return new URL(uri).hostname;
  } catch {
    return uri;
  }
}

/** `suggest` when the prompt asks for a task configuration, otherwise `check`. */
export function promptKind(systemText: string, promptText: string): 'check' | 'suggest' {
  return `${systemText}\n${promptText}`.includes('notify_behavior') ? 'suggest' : 'check';
}

/** How a stand-in reads one request: what to record, or the answer that refuses it. */
export type Described<R> =
  { recorded: R; refusal?: HttpReply } | { recorded?: undefined; refusal: HttpReply };

/**
 * A local HTTP stand-in on 127.0.0.1 for a provider API, so tests exercise the real provider and
 * its HTTP client. Replies come from the one-shot queue (`enqueue`) first, then from the
 * default handler (`respondWith`). A subclass maps the wire format: which paths exist, how a
 * request is recorded and authorised, and how a text or an error is written.
 */
export abstract class WireStandIn<R extends RecordedRequest<object> = RecordedRequest> {
  /** Requests in arrival order, at most `maxRecordedRequests` (oldest dropped first). */
  readonly requests: R[] = [];
  /** Benchmarks turn this off so a long run keeps no history. */
  recordRequests = true;
  maxRecordedRequests = 1_000;
  /** Counts every request, recorded or not. */
  requestCount = 0;
  baseUrl = '';

  private server: Server | null = null;
  // Stored as handlers of `never` so a stand-in of a narrower request type still passes for a
  // `WireStandIn<RecordedRequest<object>>` (handler parameters would make R invariant).
  private readonly queue: Array<StandInReply | ReplyHandler<never>> = [];
  private handler: ReplyHandler<never> = (request: R) => this.defaultReply(request);
  /** Pending delays, resolved early by `stop()` so no reply outlives the server. */
  private readonly delays = new Map<NodeJS.Timeout, () => void>();

  /** `SEARCH_PROVIDER` and the variables that point the service at this stand-in. */
  abstract env(): Record<string, string>;
  /** Realistic defaults: a check is "not met, next check in an hour"; a suggestion is generic. */
  abstract defaultReply(request: R): StandInReply;
  abstract checkReply(options?: CheckReplyOptions): StandInReply;
  abstract suggestReply(options?: SuggestReplyOptions): StandInReply;
  /** An HTTP error in the API's own error shape. */
  abstract errorReply(
    status: number,
    message?: string,
    headers?: Record<string, string>,
  ): HttpReply;
  /** The usage an execution records for one check answered by `checkReply` with `env()`. */
  abstract readonly checkUsage: ProviderUsage;
  /** HTTP calls one check makes. */
  abstract readonly callsPerCheck: number;
  /**
   * The search tools `request` asks for, by name (`google_search`, `web_search`, or `searxng`
   * for a query to the search engine itself); [] for a call without search.
   */
  abstract searchTools(request: R): string[];
  protected abstract describe(request: IncomingMessage, rawBody: string): Described<R>;
  protected abstract textBody(text: string, finishReason?: string): unknown;
  protected abstract errorBody(status: number, message?: string): unknown;

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      // A client that hangs up mid-body must not become an unhandled rejection.
      this.serve(request, response).catch(() => response.destroy());
    });
    const port = await listenOnLoopback(server);
    this.server = server;
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
    if (server !== null) await closeNow(server);
  }

  /** Forgets recorded requests and queued replies and restores the default handler. */
  reset(): this {
    this.requests.length = 0;
    this.queue.length = 0;
    this.requestCount = 0;
    this.handler = (request: R) => this.defaultReply(request);
    return this;
  }

  /** Sets the reply used whenever the queue is empty. */
  respondWith(reply: StandInReply | ReplyHandler<R>): this {
    this.handler = typeof reply === 'function' ? reply : () => reply;
    return this;
  }

  /** Queues one-shot replies, consumed one per request in order. */
  enqueue(...replies: Array<StandInReply | ReplyHandler<R>>): this {
    this.queue.push(...replies);
    return this;
  }

  /** A 200 whose model text is exactly `text` (for unparseable or hand-written replies). */
  textReply(text: string, finishReason?: string): TextReply {
    return { text, finishReason };
  }

  get pendingReplies(): number {
    return this.queue.length;
  }

  get lastRequest(): R | undefined {
    return this.requests[this.requests.length - 1];
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const described = this.describe(request, await readBody(request));
    if (described.recorded !== undefined) {
      // Rejected requests are recorded too, so a test can see that a bad key was not retried.
      this.requestCount++;
      if (this.recordRequests) {
        this.requests.push(described.recorded);
        if (this.requests.length > this.maxRecordedRequests) this.requests.shift();
      }
    }
    if (described.refusal !== undefined || described.recorded === undefined) {
      return this.send(response, described.refusal ?? { status: 500 });
    }
    const next = this.queue.shift() ?? this.handler;
    let reply: StandInReply;
    try {
      reply =
        typeof next === 'function' ? await (next as ReplyHandler<R>)(described.recorded) : next;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reply = this.errorReply(500, `Stand-in handler failed: ${message}`);
    }
    await this.answer(described.recorded, reply, response);
  }

  private async answer(recorded: R, reply: StandInReply, response: ServerResponse): Promise<void> {
    if ('dropConnection' in reply) {
      response.socket?.destroy();
      return;
    }
    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      await this.wait(reply.delayMs);
      if (response.destroyed || this.server === null) return;
    }
    if ('text' in reply) {
      return this.send(response, {
        status: 200,
        body: this.textBody(reply.text, reply.finishReason),
      });
    }
    if ('status' in reply) return this.send(response, reply);
    // A bare delay: answer with what comes next (which may add a delay of its own).
    return this.answer(recorded, reply.then ?? this.defaultReply(recorded), response);
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

  private send(response: ServerResponse, reply: HttpReply): void {
    if (response.destroyed || response.headersSent) return;
    const body =
      reply.body === undefined && reply.status >= 400 ? this.errorBody(reply.status) : reply.body;
    const payload =
      body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    response.writeHead(reply.status, {
      'content-type':
        typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=UTF-8',
      ...reply.headers,
    });
    response.end(payload);
  }
}

/** The body as a JSON object (typed as the stand-in reads it), or null when it is not one. */
export function parseJsonObject<T extends object = Record<string, unknown>>(raw: string): T | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as T)
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

/** The `type` of each entry of a request's `tools` (OpenAI-style APIs). */
export function toolTypes(body: object): string[] {
  const tools = (body as { tools?: unknown }).tools;
  return (Array.isArray(tools) ? tools : []).map((tool) =>
    String((tool as { type?: unknown } | null)?.type),
  );
}

/** The `Authorization: Bearer <key>` check every OpenAI-style API makes. */
export function bearerMatches(headers: IncomingHttpHeaders, apiKey: string): boolean | null {
  const header = headers.authorization;
  if (typeof header !== 'string' || header === '') return null;
  return header === `Bearer ${apiKey}`;
}
