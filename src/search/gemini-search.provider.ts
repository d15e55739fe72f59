import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { buildCheckPrompt, buildSuggestPrompt, type GeminiPrompt } from './gemini-prompts';
import { parseCheckReply, parseSuggestReply } from './gemini-response.parser';
import {
  ProviderError,
  ProviderNotConfiguredError,
  SearchProvider,
  type CheckRequest,
  type CheckResult,
  type SuggestRequest,
  type SuggestResult,
} from './search-provider';

/** Knobs of the HTTP client; tests shrink the delays, production keeps the defaults. */
export interface GeminiProviderOptions {
  /** Retries after the first attempt for 429, 5xx and network errors. */
  maxRetries: number;
  /** First backoff delay; each retry doubles it, and half of it is random jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Upper bound on a server-requested wait (`Retry-After` or Google's `RetryInfo`). */
  retryAfterCapMs: number;
  /** Per attempt; grounded answers routinely take 10 to 30 s. */
  timeoutMs: number;
  temperature: number;
}

export const DEFAULT_GEMINI_PROVIDER_OPTIONS: Readonly<GeminiProviderOptions> = {
  maxRetries: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  retryAfterCapMs: 30_000,
  timeoutMs: 60_000,
  temperature: 0.2,
};

/** Optional injection token to override `DEFAULT_GEMINI_PROVIDER_OPTIONS` in a module. */
export const GEMINI_PROVIDER_OPTIONS = Symbol('GEMINI_PROVIDER_OPTIONS');

/** Error bodies and thrown messages are cut to this length before they reach a user. */
const MAX_ERROR_DETAIL_LENGTH = 300;

type AttemptOutcome =
  | { ok: true; body: unknown }
  | {
      ok: false;
      retryable: boolean;
      /** Retrying is pointless (a 400) or unwanted (a timeout already took the full budget). */
      final: boolean;
      /** What failed, e.g. "Gemini API request failed with HTTP 503". */
      summary: string;
      /** The API's own explanation or the network error code; may be empty. */
      detail: string;
      retryAfterMs: number | null;
    };

function describeFailure(summary: string, detail: string, attemptsNote = ''): string {
  return `${summary}${attemptsNote}${detail === '' ? '' : `: ${detail}`}`;
}

/**
 * The Gemini adapter (contract section 3): one `generateContent` call with Google Search
 * grounding per check or suggestion, retried with backoff on 429, 5xx and network errors.
 */
@Injectable()
export class GeminiSearchProvider extends SearchProvider {
  readonly name = 'gemini';
  protected readonly options: GeminiProviderOptions;
  /** Jitter source; replaceable so a test can pin the delays. */
  protected random: () => number = Math.random;
  private readonly http: AxiosInstance;
  private readonly logger = new Logger(GeminiSearchProvider.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(GEMINI_PROVIDER_OPTIONS) options?: Partial<GeminiProviderOptions>,
  ) {
    super();
    this.options = { ...DEFAULT_GEMINI_PROVIDER_OPTIONS, ...options };
    this.http = axios.create({
      timeout: this.options.timeoutMs,
      // Statuses are classified below; axios must not throw on them.
      validateStatus: () => true,
      maxContentLength: 20 * 1024 * 1024,
      maxRedirects: 0,
    });
  }

  isConfigured(): boolean {
    return typeof this.config.gemini.apiKey === 'string' && this.config.gemini.apiKey !== '';
  }

  protected async runCheck(request: CheckRequest, signal?: AbortSignal): Promise<CheckResult> {
    const prompt = buildCheckPrompt(request, {
      minIntervalMs: this.config.scheduler.minIntervalMs,
      maxIntervalMs: this.config.scheduler.maxIntervalMs,
    });
    const body = await this.generateContent(prompt, signal);
    return parseCheckReply(body, request.now);
  }

  protected async runSuggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestResult> {
    const body = await this.generateContent(buildSuggestPrompt(request, new Date()), signal);
    return parseSuggestReply(body, request);
  }

  /** The generateContent endpoint; a `models/` prefix in GEMINI_MODEL is tolerated. */
  endpointUrl(): string {
    const model = this.config.gemini.model.replace(/^models\//, '');
    return `${this.config.gemini.baseUrl}/v1beta/models/${encodeURIComponent(model)}:generateContent`;
  }

  private async generateContent(prompt: GeminiPrompt, signal?: AbortSignal): Promise<unknown> {
    const apiKey = this.config.gemini.apiKey;
    if (!this.isConfigured() || apiKey === null) throw new ProviderNotConfiguredError();
    const requestBody = {
      systemInstruction: { parts: [{ text: prompt.systemInstruction }] },
      contents: [{ role: 'user', parts: [{ text: prompt.userText }] }],
      tools: [{ google_search: {} }],
      generationConfig: { temperature: this.options.temperature },
    };
    const attempts = this.options.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attemptOnce(requestBody, apiKey, signal);
      if (outcome.ok) return outcome.body;
      if (outcome.final || !outcome.retryable || attempt >= attempts) {
        const attemptsNote = outcome.final || attempt === 1 ? '' : ` after ${attempt} attempts`;
        const message = describeFailure(outcome.summary, outcome.detail, attemptsNote);
        throw new ProviderError(redact(message, apiKey), outcome.retryable);
      }
      const delayMs = this.retryDelayMs(attempt, outcome.retryAfterMs);
      const failure = redact(describeFailure(outcome.summary, outcome.detail), apiKey);
      this.logger.warn(
        `${failure}; retrying in ${delayMs} ms (attempt ${attempt + 1} of ${attempts})`,
      );
      await this.sleep(delayMs, signal);
    }
  }

  private async attemptOnce(
    requestBody: object,
    apiKey: string,
    signal?: AbortSignal,
  ): Promise<AttemptOutcome> {
    if (signal?.aborted) throw cancelledError(signal);
    let response: AxiosResponse<unknown>;
    try {
      response = await this.http.post<unknown>(this.endpointUrl(), requestBody, {
        headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey },
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw cancelledError(signal);
      return this.networkFailure(error);
    }
    const { status } = response;
    if (status >= 200 && status < 300) return { ok: true, body: response.data };
    const retryable = status === 429 || status >= 500;
    return {
      ok: false,
      retryable,
      final: !retryable,
      summary: retryable
        ? `Gemini API request failed with HTTP ${status}`
        : `Gemini API rejected the request with HTTP ${status}`,
      detail: apiErrorMessage(response.data),
      retryAfterMs: retryable ? retryAfterMs(response) : null,
    };
  }

  private networkFailure(error: unknown): AttemptOutcome {
    const code = axios.isAxiosError(error) ? error.code : undefined;
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') {
      // A hung attempt already used the whole timeout; retrying would multiply the wait.
      return {
        ok: false,
        retryable: true,
        final: true,
        summary: `Gemini API did not answer within ${formatSeconds(this.options.timeoutMs)}`,
        detail: '',
        retryAfterMs: null,
      };
    }
    return {
      ok: false,
      retryable: true,
      final: false,
      summary: 'Could not reach the Gemini API',
      detail: code ?? truncate(message),
      retryAfterMs: null,
    };
  }

  /** Exponential backoff with equal jitter, never shorter than what the server asked for. */
  protected retryDelayMs(attempt: number, requestedMs: number | null): number {
    const exponential = Math.min(
      this.options.backoffMaxMs,
      this.options.backoffBaseMs * 2 ** (attempt - 1),
    );
    const jittered = Math.round(exponential / 2 + (this.random() * exponential) / 2);
    if (requestedMs === null) return jittered;
    return Math.max(jittered, Math.min(requestedMs, this.options.retryAfterCapMs));
  }

  protected sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(cancelledError(signal));
      const onAbort = () => {
        clearTimeout(timer);
        reject(cancelledError(signal));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delayMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function cancelledError(signal?: AbortSignal): ProviderError {
  const reason: unknown = signal?.reason;
  const detail = reason instanceof Error && reason.message ? `: ${reason.message}` : '';
  return new ProviderError(`Gemini API request was cancelled${detail}`, true);
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

/** Belt and braces: Google echoes request fragments in some errors, and the key must not leak. */
function redact(text: string, apiKey: string): string {
  return apiKey === '' ? text : text.split(apiKey).join('[redacted]');
}

/** `error.message` of Google's `{"error": {"code", "message", "status"}}` body, if any. */
function apiErrorMessage(data: unknown): string {
  const error =
    typeof data === 'object' && data !== null ? (data as { error?: unknown }).error : undefined;
  if (typeof error === 'object' && error !== null) {
    const { message, status } = error as { message?: unknown; status?: unknown };
    if (typeof message === 'string' && message.trim() !== '') return truncate(message.trim());
    if (typeof status === 'string') return status;
  }
  return '';
}

/**
 * The wait the server asked for: the `Retry-After` header (seconds or an HTTP date) or the
 * `google.rpc.RetryInfo` detail that Gemini puts in 429 bodies (`"retryDelay": "17s"`).
 */
function retryAfterMs(response: AxiosResponse<unknown>): number | null {
  const header: unknown = response.headers['retry-after'];
  if (typeof header === 'string' && header.trim() !== '') {
    const value = header.trim();
    if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const data = response.data;
  const error =
    typeof data === 'object' && data !== null ? (data as { error?: unknown }).error : undefined;
  const details =
    typeof error === 'object' && error !== null ? (error as { details?: unknown }).details : null;
  if (!Array.isArray(details)) return null;
  for (const detail of details) {
    const retryDelay: unknown =
      typeof detail === 'object' && detail !== null
        ? (detail as { retryDelay?: unknown }).retryDelay
        : undefined;
    const match = typeof retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(retryDelay) : null;
    if (match !== null) return Math.round(Number(match[1]) * 1000);
  }
  return null;
}
