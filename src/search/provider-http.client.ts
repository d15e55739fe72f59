import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { asRecord } from './model-reply.parser';
import { ProviderError } from './search-provider';

/** Knobs of the HTTP client every provider shares; tests shrink the delays. */
export interface ProviderHttpOptions {
  /** Retries after the first attempt for 429, 5xx and network errors. */
  maxRetries: number;
  /** First backoff delay; each retry doubles it, and half of it is random jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Upper bound on a server-requested wait (`Retry-After` or Google's `RetryInfo`). */
  retryAfterCapMs: number;
  /** Per attempt; grounded answers routinely take 10 to 30 s. */
  timeoutMs: number;
}

export const DEFAULT_PROVIDER_HTTP_OPTIONS: Readonly<ProviderHttpOptions> = {
  maxRetries: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  retryAfterCapMs: 30_000,
  timeoutMs: 60_000,
};

/** Error bodies and thrown messages are cut to this length before they reach a user. */
const MAX_ERROR_DETAIL_LENGTH = 300;
const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 256, maxFreeSockets: 256 };

/** One call of a provider's API; `secret` is redacted from every message the call produces. */
export interface ProviderHttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  secret?: string | null;
  signal?: AbortSignal;
}

/** A 200 whose body still means "try again" (SearXNG with every engine down): a transient failure. */
export type TransientCheck = (body: unknown) => string | null;

type Attempt =
  | { ok: true; body: unknown }
  | {
      ok: false;
      retryable: boolean;
      /** Retrying is pointless (a 400) or unwanted (a timeout already took the full budget). */
      final: boolean;
      summary: string;
      /** The API's own explanation or the network error code; may be empty. */
      detail: string;
      retryAfterMs: number | null;
    };

type RawResponse = { status: number; headers: IncomingMessage['headers']; text: string };

/**
 * The HTTP side every provider shares: JSON over Node's own client (keep-alive; measured cheaper
 * per request than axios, see the webhook channel), retried with exponential backoff and jitter
 * on 429, 5xx and network errors, `Retry-After` honoured, credentials never in a message.
 * `label` names the API in errors ("Gemini API", "OpenAI API").
 */
export class ProviderHttpClient {
  /** Jitter source; replaceable so a test can pin the delays. */
  random: () => number = Math.random;
  private readonly httpAgent = new HttpAgent(AGENT_OPTIONS);
  private readonly httpsAgent = new HttpsAgent(AGENT_OPTIONS);

  constructor(
    readonly label: string,
    readonly options: ProviderHttpOptions,
    private readonly warn: (message: string) => void,
  ) {}

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /** The parsed JSON body of the first 2xx answer; throws `ProviderError` otherwise. */
  async requestJson(call: ProviderHttpRequest, transient?: TransientCheck): Promise<unknown> {
    const attempts = this.options.maxRetries + 1;
    const secret = call.secret ?? '';
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attemptOnce(call, transient);
      if (outcome.ok) return outcome.body;
      if (outcome.final || !outcome.retryable || attempt >= attempts) {
        const note = outcome.final || attempt === 1 ? '' : ` after ${attempt} attempts`;
        const message = describeFailure(outcome.summary, outcome.detail, note);
        throw new ProviderError(redact(message, secret), outcome.retryable);
      }
      const delayMs = this.retryDelayMs(attempt, outcome.retryAfterMs);
      const failure = redact(describeFailure(outcome.summary, outcome.detail), secret);
      this.warn(`${failure}; retrying in ${delayMs} ms (attempt ${attempt + 1} of ${attempts})`);
      await this.sleep(delayMs, call.signal);
    }
  }

  private async attemptOnce(
    call: ProviderHttpRequest,
    transient?: TransientCheck,
  ): Promise<Attempt> {
    if (call.signal?.aborted) throw this.cancelled(call.signal);
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let response: RawResponse;
    try {
      response = await this.send(call, timeout);
    } catch (error) {
      if (call.signal?.aborted) throw this.cancelled(call.signal);
      if (timeout.aborted) {
        // A hung attempt already used the whole timeout; retrying would multiply the wait.
        const seconds = formatSeconds(this.options.timeoutMs);
        const summary = `${this.label} did not answer within ${seconds}`;
        return { ok: false, retryable: true, final: true, summary, detail: '', retryAfterMs: null };
      }
      return this.networkFailure(error);
    }
    const { status } = response;
    const body = parseJson(response.text);
    if (status >= 200 && status < 300) {
      if (body === undefined) {
        return failure(false, `${this.label} answered with a body that is not JSON`, '');
      }
      const transientReason = transient?.(body) ?? null;
      if (transientReason !== null) return failure(true, `${this.label} ${transientReason}`, '');
      return { ok: true, body };
    }
    const retryable = status === 429 || status >= 500;
    return {
      ok: false,
      retryable,
      final: !retryable,
      summary: retryable
        ? `${this.label} request failed with HTTP ${status}`
        : `${this.label} rejected the request with HTTP ${status}`,
      detail: apiErrorMessage(body),
      retryAfterMs: retryable ? retryAfterMs(response.headers, body) : null,
    };
  }

  private send(call: ProviderHttpRequest, timeout: AbortSignal): Promise<RawResponse> {
    const url = new URL(call.url);
    const https = url.protocol === 'https:';
    const payload = call.body === undefined ? null : Buffer.from(JSON.stringify(call.body));
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    return new Promise((resolve, reject) => {
      const request = (https ? httpsRequest : httpRequest)(
        url,
        {
          method: call.method,
          agent: https ? this.httpsAgent : this.httpAgent,
          signal,
          headers: {
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json' } : {}),
            ...(payload ? { 'content-length': String(payload.length) } : {}),
            ...call.headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) response.destroy(new Error('response too large'));
            else chunks.push(chunk);
          });
          response.once('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          response.once('error', reject);
        },
      );
      request.once('error', reject);
      request.end(payload ?? undefined);
    });
  }

  private networkFailure(error: unknown): Attempt {
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    return failure(true, `Could not reach the ${this.label}`, code ?? truncate(message));
  }

  /** Exponential backoff with equal jitter, never shorter than what the server asked for. */
  retryDelayMs(attempt: number, requestedMs: number | null): number {
    const { backoffBaseMs, backoffMaxMs, retryAfterCapMs } = this.options;
    const exponential = Math.min(backoffMaxMs, backoffBaseMs * 2 ** (attempt - 1));
    const jittered = Math.round(exponential / 2 + (this.random() * exponential) / 2);
    if (requestedMs === null) return jittered;
    return Math.max(jittered, Math.min(requestedMs, retryAfterCapMs));
  }

  private sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(this.cancelled(signal));
      const onAbort = () => {
        clearTimeout(timer);
        reject(this.cancelled(signal));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delayMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private cancelled(signal?: AbortSignal): ProviderError {
    const reason: unknown = signal?.reason;
    const detail = reason instanceof Error && reason.message ? `: ${reason.message}` : '';
    return new ProviderError(`${this.label} request was cancelled${detail}`, true);
  }
}

function failure(retryable: boolean, summary: string, detail: string): Attempt {
  return { ok: false, retryable, final: false, summary, detail, retryAfterMs: null };
}

function describeFailure(summary: string, detail: string, attemptsNote = ''): string {
  return `${summary}${attemptsNote}${detail === '' ? '' : `: ${detail}`}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

function truncate(text: string): string {
  return text.length <= MAX_ERROR_DETAIL_LENGTH
    ? text
    : `${text.slice(0, MAX_ERROR_DETAIL_LENGTH)}...`;
}

/** Belt and braces: some APIs echo request fragments in errors, and a key must not leak. */
function redact(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}

/**
 * The API's own explanation: `error.message` (Google, OpenAI, Perplexity), an `error` string
 * (llama.cpp, Ollama) or `detail` (FastAPI-style servers); else the status name Google sends.
 */
function apiErrorMessage(body: unknown): string {
  const root = asRecord(body);
  if (root === null) return '';
  if (typeof root.error === 'string' && root.error.trim() !== '')
    return truncate(root.error.trim());
  const error = asRecord(root.error);
  if (error !== null) {
    if (typeof error.message === 'string' && error.message.trim() !== '') {
      return truncate(error.message.trim());
    }
    if (typeof error.status === 'string') return error.status;
  }
  if (typeof root.detail === 'string') return truncate(root.detail.trim());
  return '';
}

/**
 * The wait the server asked for: the `Retry-After` header (seconds or an HTTP date) or the
 * `google.rpc.RetryInfo` detail that Gemini puts in 429 bodies (`"retryDelay": "17s"`).
 */
function retryAfterMs(headers: IncomingMessage['headers'], body: unknown): number | null {
  const header = headers['retry-after'];
  if (typeof header === 'string' && header.trim() !== '') {
    const value = header.trim();
    if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const details = asRecord(asRecord(body)?.error)?.details;
  if (!Array.isArray(details)) return null;
  for (const detail of details) {
    const retryDelay = asRecord(detail)?.retryDelay;
    const match = typeof retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(retryDelay) : null;
    if (match !== null) return Math.round(Number(match[1]) * 1000);
  }
  return null;
}
