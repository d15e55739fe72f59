import {
  OutboundError,
  type OutboundHttpClient,
  type OutboundResponse,
} from '../common/outbound/outbound-http.client';
import { OutboundErrorCode } from '../common/outbound/outbound-error-code';
import { backoffDelayMs, parseRetryAfterMs } from '../common/outbound/retry-timing';
import { asRecord } from './model-reply.parser';
import { ProviderError } from './search-provider';

/** Knobs of the retry policy every provider shares; tests shrink the delays. */
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

/** What a provider adapter is built with: the shared outbound client and the retry knobs. */
export interface ProviderHttp {
  client: OutboundHttpClient;
  options: ProviderHttpOptions;
}

/** A provider's HTTP answer is at most 2 MB (docs/architecture.md, "Provider calls"). */
export const MAX_PROVIDER_ANSWER_BYTES = 2 * 1024 * 1024;
/** Error bodies and thrown messages are cut to this length before they reach a user. */
const MAX_ERROR_DETAIL_LENGTH = 300;

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

/**
 * The retry policy of one provider endpoint (docs/architecture.md, "Provider calls") on the shared
 * outbound client: JSON in and out, retried with exponential backoff and jitter on 429, 5xx and
 * network errors, `Retry-After` (or Google's `RetryInfo`) honoured, credentials never in a message.
 * `label` names the API in errors ("Gemini API", "OpenAI API").
 */
export class ProviderApi {
  /** Jitter source; replaceable so a test can pin the delays. */
  random: () => number = Math.random;

  constructor(
    readonly label: string,
    private readonly client: OutboundHttpClient,
    readonly options: ProviderHttpOptions,
    private readonly warn: (message: string) => void,
  ) {}

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

  /** Exponential backoff with equal jitter, never shorter than what the server asked for. */
  retryDelayMs(attempt: number, requestedMs: number | null): number {
    const { backoffBaseMs, backoffMaxMs, retryAfterCapMs } = this.options;
    return backoffDelayMs(
      attempt,
      { baseMs: backoffBaseMs, maxMs: backoffMaxMs },
      this.random,
      requestedMs === null ? null : { ms: requestedMs, capMs: retryAfterCapMs },
    );
  }

  private async attemptOnce(
    call: ProviderHttpRequest,
    transient?: TransientCheck,
  ): Promise<Attempt> {
    if (call.signal?.aborted) throw this.cancelled(call.signal);
    let response: OutboundResponse;
    try {
      response = await this.client.request({
        destination: 'operator',
        method: call.method,
        url: call.url,
        headers: {
          accept: 'application/json',
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
        },
        body: call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body)),
        timeoutMs: this.options.timeoutMs,
        response: 'text',
        maxResponseBytes: MAX_PROVIDER_ANSWER_BYTES,
        signal: call.signal,
      });
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      return this.exchangeFailure(error, call);
    }
    const { status } = response;
    const body = parseJson(response.body);
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
      retryAfterMs: retryable ? requestedDelayMs(response, body) : null,
    };
  }

  private exchangeFailure(error: OutboundError, call: ProviderHttpRequest): Attempt {
    switch (error.code) {
      case OutboundErrorCode.CANCELLED:
        throw this.cancelled(call.signal);
      case OutboundErrorCode.TIMEOUT: {
        // A hung attempt already used the whole timeout; retrying would multiply the wait.
        const summary = `${this.label} did not answer within ${formatSeconds(this.options.timeoutMs)}`;
        return { ok: false, retryable: true, final: true, summary, detail: '', retryAfterMs: null };
      }
      case OutboundErrorCode.TOO_LARGE: {
        const megabytes = MAX_PROVIDER_ANSWER_BYTES / (1024 * 1024);
        const summary = `${this.label} answered with more than ${megabytes} MB`;
        return {
          ok: false,
          retryable: false,
          final: true,
          summary,
          detail: '',
          retryAfterMs: null,
        };
      }
      case OutboundErrorCode.INVALID_URL:
        return {
          ok: false,
          retryable: false,
          final: true,
          summary: `Could not reach the ${this.label}`,
          detail: 'the configured URL is not a valid http or https URL',
          retryAfterMs: null,
        };
      default:
        return failure(
          true,
          `Could not reach the ${this.label}`,
          error.systemCode ?? truncate(error.message),
        );
    }
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
function requestedDelayMs(response: OutboundResponse, body: unknown): number | null {
  const header = parseRetryAfterMs(response.header('retry-after'));
  if (header !== null) return header;
  const details = asRecord(asRecord(body)?.error)?.details;
  if (!Array.isArray(details)) return null;
  for (const detail of details) {
    const retryDelay = asRecord(detail)?.retryDelay;
    const match = typeof retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(retryDelay) : null;
    if (match !== null) return Math.round(Number(match[1]) * 1000);
  }
  return null;
}
