import {
  OutputValuesMismatchError,
  readOutputValues,
  type OutputSchema,
  type OutputValues,
} from './output-schema';
import { cleanText, cleanValue } from './provider-output';
import {
  NO_TOKENS,
  priceUsage,
  type Prices,
  type ProviderUsage,
  type TokenUsage,
} from './provider-usage';
import type { GroundingSource, ModelCallKind, NotifyBehavior, PromptPage } from './search.types';
import { CodedError } from '../common/errors/coded-error';
import { SearchErrorCode } from './search-error-code';

export * from './search.types';
export type { ProviderUsage, TokenUsage } from './provider-usage';

/** What a check needs to know about the task and its history. */
export interface CheckRequest {
  searchQuery: string;
  conditionDescription: string;
  /** `current_state` returned by the previous check (null on the first check). */
  previousState: Record<string, unknown> | null;
  /** When the previous check finished (null on the first check). */
  previousCheckAt: Date | null;
  now: Date;
  /** The values to extract (`output_schema`), or null when the task asks for none. */
  outputSchema: OutputSchema | null;
  /**
   * A page task's pages as its check read them (docs/pages.md, "The model call"): the call is
   * made without the provider's search tool, the pages given as data. Absent: a web search.
   */
  pages?: PromptPage[];
  /** What the call is for, as `monitor_model_calls_total` counts it: a task's check by default. */
  purpose?: Exclude<ModelCallKind, 'suggest'>;
}

/** The verdict of one check as an adapter reads it from the wire, with what the call consumed. */
export interface CheckReply {
  conditionMet: boolean;
  answer: string;
  reasoning: string;
  currentState: Record<string, unknown>;
  /** The agent's choice for the next check; null when it gave none or an unusable value. */
  nextCheckAt: Date | null;
  groundingSources: GroundingSource[];
  /** The reply's `values` as the model wrote them (undefined when it wrote none). */
  values: unknown;
  tokens: TokenUsage;
}

/** The outcome of one grounded search, usage priced, values read against the schema. */
export interface CheckResult extends Omit<CheckReply, 'tokens' | 'values'> {
  /** Null when the task has no `output_schema`. */
  values: OutputValues | null;
  usage: ProviderUsage;
}

export interface SuggestRequest {
  prompt: string;
  currentTask?: {
    name?: string;
    search_query?: string;
    condition_description?: string;
    schedule?: string;
    notify_behavior?: string;
  };
}

export interface SuggestResult {
  name: string;
  search_query: string;
  condition_description: string;
  schedule: string;
  notify_behavior: Exclude<NotifyBehavior, 'on_change'>;
}

export interface SuggestReply {
  suggestion: SuggestResult;
  tokens: TokenUsage;
}

export interface SuggestOutcome {
  suggestion: SuggestResult;
  usage: ProviderUsage;
}

/**
 * A grounded-search provider, one adapter per API behind one interface. An adapter implements
 * `runCheck` and `runSuggest` (the wire mapping) and reports the tokens and searches each call
 * consumed; callers use `check` and `suggest`, which clean what the adapter returns so that no
 * reply can hold text the database refuses, and price the usage. Errors:
 *  - `ProviderNotConfiguredError` when the provider has no credentials,
 *  - `ProviderError` for a failed call or an unusable reply (message is user-readable), with the
 *    usage of the call that failed.
 */
export abstract class SearchProvider {
  abstract readonly name: string;
  /** The model whose calls are billed (`usage.model`). */
  abstract readonly model: string;
  protected abstract readonly prices: Prices;
  abstract isConfigured(): boolean;
  protected abstract runCheck(request: CheckRequest, signal?: AbortSignal): Promise<CheckReply>;
  protected abstract runSuggest(
    request: SuggestRequest,
    signal?: AbortSignal,
  ): Promise<SuggestReply>;

  private countCall: (kind: ModelCallKind) => void = () => {};

  /** Why this provider cannot make `request` at all (then nothing is called or counted), or null. */
  protected refusal(_request: CheckRequest): string | null {
    return null;
  }

  /** Releases the adapter's kept-alive connections at shutdown. */
  close(): void {}

  /** Reports every call made to a configured provider to `count`, with what it is for. */
  countCallsWith(count: (kind: ModelCallKind) => void): void {
    this.countCall = count;
  }

  async check(request: CheckRequest, signal?: AbortSignal): Promise<CheckResult> {
    const refused = this.refusal(request);
    if (refused !== null) return this.priced(Promise.reject(new ProviderError(refused)));
    this.counted(request.purpose ?? 'check');
    const { tokens, values, ...reply } = await this.priced(
      cleaned(this.runCheck(request, signal)).then((cleanReply) => ({
        ...cleanReply,
        values: this.withTokens(cleanReply.tokens, () => valuesOf(request, cleanReply.values)),
      })),
    );
    return { ...reply, values, usage: this.usageOf(tokens) };
  }

  async suggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestOutcome> {
    this.counted('suggest');
    const { suggestion, tokens } = await this.priced(cleaned(this.runSuggest(request, signal)));
    return { suggestion, usage: this.usageOf(tokens) };
  }

  /** Tokens a reply reported stay with the error when the reply cannot be used. */
  protected withTokens<T>(tokens: TokenUsage, read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof ProviderError) error.tokens = tokens;
      throw error;
    }
  }

  private counted(kind: ModelCallKind): void {
    if (this.isConfigured()) this.countCall(kind);
  }

  private usageOf(tokens: TokenUsage): ProviderUsage {
    return priceUsage(this.name, this.model, tokens, this.prices);
  }

  private async priced<T>(reply: Promise<T>): Promise<T> {
    try {
      return await reply;
    } catch (error) {
      if (error instanceof ProviderError) error.usage = this.usageOf(error.tokens ?? NO_TOKENS);
      throw error;
    }
  }
}

/** The reply's values checked against the task's `output_schema`; null without one. */
function valuesOf(request: CheckRequest, raw: unknown): OutputValues | null {
  if (request.outputSchema === null) return null;
  try {
    return readOutputValues(request.outputSchema, raw);
  } catch (error) {
    if (error instanceof OutputValuesMismatchError) throw new ProviderError(error.message);
    throw error;
  }
}

/** The reply with its strings cleaned; an error's message (which may quote the reply) too. */
async function cleaned<T>(reply: Promise<T>): Promise<T> {
  try {
    return cleanValue(await reply);
  } catch (error) {
    if (error instanceof Error) error.message = cleanText(error.message);
    throw error;
  }
}

/** A failed call or an unusable reply: `PROVIDER_UNAVAILABLE` when trying again later may help. */
export class ProviderError extends CodedError<
  SearchErrorCode.PROVIDER_UNAVAILABLE | SearchErrorCode.PROVIDER_FAILED
> {
  /** What the failed call consumed, as the adapter read it (null: nothing was billed). */
  tokens: TokenUsage | null = null;
  /** `tokens` priced; set for every error that left `SearchProvider.check` or `suggest`. */
  usage: ProviderUsage | null = null;

  constructor(
    message: string,
    /** true when the call may succeed if tried again later (429, 5xx, network) */
    retryable = false,
  ) {
    super(
      message,
      retryable ? SearchErrorCode.PROVIDER_UNAVAILABLE : SearchErrorCode.PROVIDER_FAILED,
    );
  }
}
