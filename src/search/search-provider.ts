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
 * A grounded-search provider (design notes, "Providers are adapters"). Errors:
 *  - `ProviderNotConfiguredError` when the provider has no credentials,
 *  - `ProviderError` for a failed call or an unusable reply (message is user-readable).
 */
export abstract class SearchProvider {
  abstract readonly name: string;
  abstract isConfigured(): boolean;
  abstract check(request: CheckRequest, signal?: AbortSignal): Promise<CheckResult>;
  abstract suggest(request: SuggestRequest, signal?: AbortSignal): Promise<SuggestResult>;
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
