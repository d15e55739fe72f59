import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { closeNow, listenOnLoopback } from './loopback';

/** One request as the receiver got it. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, byte for byte (signatures are checked against it). */
  body: string;
  receivedAt: number;
}

/** How to answer: a status (and body), a delay, or a dropped connection. */
export interface WebhookReply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  dropConnection?: boolean;
}

export type WebhookReplyHandler = (request: ReceivedWebhook) => WebhookReply;

/**
 * A real HTTP server on 127.0.0.1 that records every request and answers as told: one-shot
 * replies (`enqueue`) first, then the default (`respondWith`, 200 out of the box).
 */
export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  /** Benchmarks turn this off and only count. */
  recordRequests = true;
  count = 0;
  /** Requests per `webhook-id`, kept even when bodies are not recorded. */
  readonly countsById = new Map<string, number>();
  /** `Date.now()` of every arrival, kept even when bodies are not recorded. */
  readonly arrivals: number[] = [];
  url = '';
  port = 0;

  private server: Server | null = null;
  private readonly queue: Array<WebhookReply | WebhookReplyHandler> = [];
  private handler: WebhookReplyHandler = () => ({ status: 200, body: 'ok' });

  async start(port = 0): Promise<this> {
    const server = createServer((request, response) => {
      this.serve(request, response).catch(() => response.destroy());
    });
    server.keepAliveTimeout = 30_000;
    this.port = await listenOnLoopback(server, port);
    this.server = server;
    this.url = `http://127.0.0.1:${this.port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await closeNow(server);
  }

  respondWith(reply: WebhookReply | WebhookReplyHandler): this {
    this.handler = typeof reply === 'function' ? reply : () => reply;
    return this;
  }

  enqueue(...replies: Array<WebhookReply | WebhookReplyHandler>): this {
    this.queue.push(...replies);
    return this;
  }

  reset(): this {
    this.requests.length = 0;
    this.queue.length = 0;
    this.count = 0;
    this.countsById.clear();
    this.arrivals.length = 0;
    this.handler = () => ({ status: 200, body: 'ok' });
    return this;
  }

  /** Requests whose path starts with `path` (each test uses a path of its own). */
  requestsTo(path: string): ReceivedWebhook[] {
    return this.requests.filter((request) => request.path.startsWith(path));
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const received: ReceivedWebhook = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body,
      receivedAt: Date.now(),
    };
    this.count++;
    this.arrivals.push(received.receivedAt);
    const id = request.headers['webhook-id'];
    if (typeof id === 'string') this.countsById.set(id, (this.countsById.get(id) ?? 0) + 1);
    if (this.recordRequests) this.requests.push(received);
    const next = this.queue.shift() ?? this.handler;
    const reply = typeof next === 'function' ? next(received) : next;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.dropConnection) {
      request.socket.destroy();
      return;
    }
    if (response.destroyed) return;
    response.writeHead(reply.status ?? 200, {
      'content-type': 'text/plain',
      ...reply.headers,
    });
    response.end(reply.body ?? '');
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
