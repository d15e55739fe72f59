import { cleanText, cleanValue } from './provider-output';
import type { GroundingSource, NotifyBehavior } from './search.types';

export * from './search.types';

/** What a check needs to know about the task and its history. */
export interface CheckRequest {
  searchQuery: string;
  conditionDescription: string;
  /** `current_state` returned by the previous check (null on the first check). */
  previousState: Record<string, unknown> | null;
  /** When the previous check finished (null on the first check). */
  previousCheckAt: Date | null;
  now: Date;
}

/** The outcome of one grounded search, as the provider reports it (contract section 3). */
export interface CheckResult {
  conditionMet: boolean;
  answer: string;
  reasoning: string;
  currentState: Record<string, unknown>;
  /** The agent's choice for the next check; null when it gave none or an unusable value. */
  nextCheckAt: Date | null;
  groundingSources: GroundingSource[];
  /** The raw model text, kept in the execution's `result` for debugging. */
  rawText: string;
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
  notify_behavior: NotifyBehavior;
}

/**
 * A grounded-search provider (design notes, "Providers are adapters"). An adapter implements
 * `runCheck` and `runSuggest` (the wire mapping); callers use `check` and `suggest`, which clean
 * what the adapter returns so that no reply can hold text the database refuses. Errors:
 *  - `ProviderNotConfiguredError` when the provider has no credentials,
 *  - `ProviderError` for a failed call or an unusable reply (message is user-readable).
 */
export abstract class SearchProvider {
  abstract readonly name: string;
  abstract isConfigured(): boolean;
  protected abstract runCheck(request: CheckRequest, signal?: AbortSignal): Promise<CheckResult>;
  protected abstract runSuggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestResult>;

  check(request: CheckRequest, signal?: AbortSignal): Promise<CheckResult> {
    return cleaned(this.runCheck(request, signal));
  }

  suggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestResult> {
    return cleaned(this.runSuggest(request, signal));
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

export const NO_PROVIDER_MESSAGE =
  'No grounded-search provider is configured (set GEMINI_API_KEY to enable the Gemini provider)';

export class ProviderNotConfiguredError extends Error {
  constructor() {
    super(NO_PROVIDER_MESSAGE);
    this.name = 'ProviderNotConfiguredError';
  }
}

export class ProviderError extends Error {
  constructor(
    message: string,
    /** true when the call may succeed if tried again later (429, 5xx, network) */
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
