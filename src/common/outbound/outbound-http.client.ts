import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import axios, { AxiosError, type AxiosInstance, type AxiosResponse } from 'axios';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { finished, type Readable } from 'node:stream';
import { CodedError } from '../errors/coded-error';
import { HostLookupError, HostResolver } from './host-resolver';
import { BlockedDestinationError, type ResolvedAddress } from './network-guard';
import { OutboundErrorCode } from './outbound-error-code';
import { OUTBOUND_HTTP_OPTIONS, type OutboundHttpOptions } from './outbound.module-definition';
import {
  createPinnedAgents,
  KeptHttpAgent,
  KeptHttpsAgent,
  socketConnected,
  type AgentPair,
} from './pinned-agents';

/**
 * Who chose a destination, which decides how its host is resolved and whether the SSRF guard
 * applies (docs/architecture.md, "Webhook hosts"):
 *  - `user`: a URL a user gave (webhooks, Slack, Discord, ntfy): resolved with c-ares, pinned,
 *    refused when it resolves to a private or reserved address unless
 *    `WEBHOOK_ALLOW_PRIVATE_NETWORKS` is set;
 *  - `notification-service`: a notification API from the operator's configuration (Telegram):
 *    c-ares and pinned like `user`, without the guard;
 *  - `operator`: an API from the operator's configuration (search providers, the JWKS): the
 *    system resolver (`/etc/hosts`, container DNS), without the guard.
 */
export type OutboundDestination = 'user' | 'notification-service' | 'operator';

export interface OutboundRequest {
  destination: OutboundDestination;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** One deadline for the whole exchange: DNS, connecting, sending, the answer and its body. */
  timeoutMs: number;
  /**
   * `text`: the body, decompressed, at most `maxResponseBytes` (more fails with `too-large`).
   * `bytes`: the body, decompressed, as bytes, at most `maxResponseBytes` (more fails with
   * `too-large`, and reading stops there).
   * `discard`: only the status and headers matter; at most `maxResponseBytes` of the body are
   * read (so the connection can be reused) and the connection is dropped past that.
   */
  response: 'text' | 'bytes' | 'discard';
  maxResponseBytes: number;
  /**
   * For `text` and `bytes`: once the body begins, at least this much of it must arrive in every
   * window, or the exchange is cut there and fails with `timeout`, before its deadline.
   */
  minBodyRate?: BodyRate;
  /** The caller's own cancellation (an execution's deadline, say). */
  signal?: AbortSignal;
}

/** Bytes of a body (as sent, before decompression) that must arrive in each window. */
export interface BodyRate {
  bytes: number;
  windowMs: number;
}

export interface OutboundResponse {
  status: number;
  /** A response header (lower-case name), the first value when repeated. */
  header(name: string): string | undefined;
  /** Empty for `bytes` and `discard`. */
  body: string;
  /** The body for `bytes`; empty otherwise. */
  bytes: Buffer;
}

/** An exchange that produced no answer; `code` says why. */
export class OutboundError extends CodedError<OutboundErrorCode> {
  constructor(
    code: OutboundErrorCode,
    message: string,
    /** The system error code for `network` (`ECONNREFUSED`, ...). */
    readonly systemCode: string | undefined = undefined,
    options?: ErrorOptions,
    /**
     * For `timeout` and `network` on user and notification-service destinations: whether the
     * connection to the destination had opened (false also when that is not known).
     */
    readonly connected = false,
  ) {
    super(message, code, options);
  }
}

/**
 * Connections per host and protocol, busy or idle: as many idle ones are kept as may be busy, so
 * a burst of deliveries to one receiver reuses every connection instead of opening most again.
 */
const SOCKETS_PER_HOST = 256;
const AGENT_OPTIONS = {
  keepAlive: true,
  // An idle connection is closed after this long, so hosts that never close theirs do not
  // accumulate open sockets.
  timeout: 30_000,
  maxSockets: SOCKETS_PER_HOST,
  maxFreeSockets: SOCKETS_PER_HOST,
  // Most recently used first: a burst reuses the warmest connections, the rest time out idle.
  scheduling: 'lifo' as const,
};
const USER_AGENT = 'TaskMonitor/1.0';
const EMPTY = Buffer.alloc(0);

/**
 * The one outbound HTTP client (docs/architecture.md, "One way out to HTTP"), on axios over
 * keep-alive agents:
 *  - no redirect is followed (`maxRedirects: 0`, which also keeps axios on Node's own transport
 *    instead of follow-redirects) and no proxy is taken from the environment (`proxy: false`):
 *    a redirect answer is handed back like any other status;
 *  - every status is an answer (`validateStatus`): what it means is the caller's policy;
 *  - one deadline (`AbortSignal.timeout`) covers DNS, connecting, sending and the body;
 *  - response bodies are read here from axios's stream (axios's progress events would add a
 *    stream stage and a pipeline to every answer), capped after decompression, and may be held
 *    to a minimum rate once they begin (`minBodyRate`, counted as sent);
 *  - user-given hosts go through agents whose lookup resolves once, applies the SSRF guard to
 *    what it found and connects to that very address (IP literals are checked by the agent).
 * A kept-alive connection the server closed just as it was reused (ECONNRESET or EPIPE on a
 * reused socket: the request never got there) is retried once on a fresh one, within the same
 * deadline. Anything else is the caller's to retry.
 */
@Injectable()
export class OutboundHttpClient implements OnApplicationShutdown {
  private readonly hosts: HostResolver;
  private readonly agents: Record<OutboundDestination, AgentPair>;
  private readonly axios: AxiosInstance;

  constructor(@Inject(OUTBOUND_HTTP_OPTIONS) private readonly options: OutboundHttpOptions) {
    this.hosts = new HostResolver(options.dnsServers);
    this.agents = {
      user: createPinnedAgents({
        ...AGENT_OPTIONS,
        resolve: (host) => this.hosts.resolve(host),
        guard: !options.allowPrivateNetworks,
      }),
      'notification-service': createPinnedAgents({
        ...AGENT_OPTIONS,
        resolve: (host) => this.hosts.resolve(host),
        guard: false,
      }),
      operator: {
        http: new KeptHttpAgent(AGENT_OPTIONS),
        https: new KeptHttpsAgent(AGENT_OPTIONS),
      },
    };
    this.axios = axios.create({
      adapter: 'http',
      maxRedirects: 0,
      proxy: false,
      validateStatus: () => true,
      transformRequest: [],
      transformResponse: [],
    });
    // axios sends `Accept: application/json, text/plain, */*` by default; callers say what they accept.
    delete this.axios.defaults.headers.common.Accept;
  }

  onApplicationShutdown(): void {
    for (const pair of Object.values(this.agents)) {
      pair.http.destroy();
      pair.https.destroy();
    }
  }

  /**
   * Config time: the SSRF guard for a user-given host, resolved as deliveries will resolve it.
   * Throws `BlockedDestinationError` or `HostLookupError`.
   */
  resolveUserHost(host: string): Promise<ResolvedAddress> {
    return this.hosts.resolveAllowed(host, this.options.allowPrivateNetworks);
  }

  /** One exchange: the answer whatever its status, or an `OutboundError`. */
  async request(call: OutboundRequest): Promise<OutboundResponse> {
    const url = parseUrl(call.url);
    const deadline = AbortSignal.timeout(call.timeoutMs);
    const trickle = call.minBodyRate && new TrickleWatch(call.minBodyRate);
    const signals = [call.signal, deadline, trickle?.signal].filter((one) => one !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : deadline;
    const agents = this.agents[call.destination];
    const discard = call.response === 'discard';
    const send = (): Promise<AxiosResponse<Readable>> =>
      this.axios.request({
        url: url.href,
        method: call.method,
        headers: {
          'user-agent': USER_AGENT,
          ...(discard ? { 'accept-encoding': 'identity' } : {}),
          ...call.headers,
        },
        data: call.body,
        httpAgent: agents.http,
        httpsAgent: agents.https,
        signal,
        responseType: 'stream',
        decompress: !discard,
        // `readBody` caps the body; axios's streamed cap costs a generator.
        maxContentLength: -1,
      });
    try {
      let response: AxiosResponse<Readable>;
      try {
        response = await send();
      } catch (error) {
        if (!isStaleConnection(error) || signal.aborted) throw error;
        response = await send();
      }
      trickle?.watch(sentBody(response));
      const body = await readBody(response.data, call.maxResponseBytes, !discard);
      return {
        status: response.status,
        header: (name) => headerValue(response.headers[name]),
        body: call.response === 'text' ? textOf(body) : '',
        bytes: call.response === 'bytes' ? body : EMPTY,
      };
    } catch (error) {
      throw failureOf(error, call, deadline, trickle);
    } finally {
      trickle?.stop();
    }
  }
}

/**
 * Cuts a body that arrives slower than its `BodyRate`: the windows count from the body's first
 * bytes, so a server that takes its time to answer is judged by its deadline alone.
 */
class TrickleWatch {
  private readonly controller = new AbortController();
  private received = 0;
  private receivedBefore = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly rate: BodyRate) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Counts the body as it arrives; its first bytes start the first window. */
  watch(body: Readable): void {
    body.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      if (this.timer !== undefined) return;
      this.timer = setInterval(() => this.endWindow(), this.rate.windowMs);
      // A watch is no reason for the process to stay up.
      this.timer.unref();
    });
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private endWindow(): void {
    if (this.received - this.receivedBefore < this.rate.bytes) {
      this.stop();
      this.controller.abort();
    }
    this.receivedBefore = this.received;
  }
}

function parseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OutboundError(OutboundErrorCode.INVALID_URL, 'Invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError(
      OutboundErrorCode.INVALID_URL,
      'Invalid URL: only http and https are supported',
    );
  }
  return url;
}

function headerValue(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' || typeof first === 'number' ? String(first) : undefined;
}

function isStaleConnection(error: unknown): boolean {
  if (!(error instanceof AxiosError)) return false;
  const request = error.request as { reusedSocket?: boolean } | undefined;
  return request?.reusedSocket === true && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
}

/** The answer's body as the server sends it, before decompression. */
function sentBody(response: AxiosResponse<Readable>): Readable {
  return (response.request as ClientRequest & { res?: IncomingMessage }).res ?? response.data;
}

/**
 * Reads a body (decompressed) up to `maxBytes`. Kept: its bytes, and past the cap reading stops
 * and the exchange fails with `too-large`. Not kept (`discard`): nothing, so the connection can
 * serve the next request, and past the cap the connection is dropped; its failures are no
 * concern of the caller's, who has the answer's status.
 */
function readBody(stream: Readable, maxBytes: number, keep: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > maxBytes) {
        stream.off('data', onData);
        stream.destroy();
        if (keep) {
          reject(
            new OutboundError(OutboundErrorCode.TOO_LARGE, `answer larger than ${maxBytes} bytes`),
          );
        } else {
          resolve(EMPTY);
        }
      } else if (keep) {
        chunks.push(chunk);
      }
    };
    stream.on('data', onData);
    finished(stream, (error) => {
      if (error && keep) reject(error);
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
  });
}

/** A body as UTF-8 text, without a byte order mark. */
function textOf(body: Buffer): string {
  const text = body.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function failureOf(
  error: unknown,
  call: OutboundRequest,
  deadline: AbortSignal,
  trickle: TrickleWatch | undefined,
): OutboundError {
  if (error instanceof OutboundError) return error;
  if (call.signal?.aborted) {
    const reason: unknown = call.signal.reason;
    const detail = reason instanceof Error && reason.message ? reason.message : '';
    return new OutboundError(OutboundErrorCode.CANCELLED, detail, undefined, { cause: error });
  }
  if (trickle?.signal.aborted) {
    const { bytes, windowMs } = trickle.rate;
    return new OutboundError(
      OutboundErrorCode.TIMEOUT,
      `the body came slower than ${bytes} bytes in ${windowMs} ms`,
      undefined,
      { cause: error },
      true,
    );
  }
  const connected = error instanceof AxiosError && socketConnected(requestSocket(error));
  if (deadline.aborted) {
    return new OutboundError(
      OutboundErrorCode.TIMEOUT,
      `no answer within ${call.timeoutMs} ms`,
      undefined,
      { cause: error },
      connected,
    );
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof BlockedDestinationError || cause instanceof HostLookupError) {
    return new OutboundError(cause.code, cause.message, undefined, { cause });
  }
  const systemCode =
    (cause as NodeJS.ErrnoException | undefined)?.code ??
    (error instanceof AxiosError ? error.code : undefined);
  const message = error instanceof Error ? error.message : String(error);
  return new OutboundError(
    OutboundErrorCode.NETWORK,
    message,
    systemCode,
    { cause: error },
    connected,
  );
}

function requestSocket(error: AxiosError): unknown {
  return (error.request as { socket?: unknown } | undefined)?.socket;
}
