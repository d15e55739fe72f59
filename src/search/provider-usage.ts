/** What one provider call consumed, as its API reports it. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  searchCalls: number;
  /** The provider's own figure in USD, when it reports one (Perplexity); wins over prices. */
  reportedCostUsd?: number | null;
}

/** The `usage` of an execution, and of a suggestion or preview (README, "Search providers"). */
export interface ProviderUsage {
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  search_calls: number;
  /** null when no price is known for the model. */
  cost_usd: number | null;
}

/** USD prices; null where unknown. */
export interface Prices {
  inputPerMTok: number | null;
  outputPerMTok: number | null;
  perSearch: number | null;
}

export const NO_TOKENS: TokenUsage = { inputTokens: 0, outputTokens: 0, searchCalls: 0 };

export const UNKNOWN_PRICES: Prices = { inputPerMTok: null, outputPerMTok: null, perSearch: null };

/** A provider's built-in list price: for one model, or for any (`model` null). */
export interface ListPrice {
  model: string | null;
  prices: Prices;
}

/**
 * The prices a provider bills with: `PRICE_INPUT_PER_MTOK`, `PRICE_OUTPUT_PER_MTOK` and
 * `PRICE_PER_SEARCH` override the built-in list price one by one; the list price belongs to the
 * provider's default model (dated in the README), so another model has only what the variables give.
 */
export function pricesFor(list: ListPrice, model: string, overrides: Prices): Prices {
  const builtIn = list.model === null || list.model === model ? list.prices : UNKNOWN_PRICES;
  return {
    inputPerMTok: overrides.inputPerMTok ?? builtIn.inputPerMTok,
    outputPerMTok: overrides.outputPerMTok ?? builtIn.outputPerMTok,
    perSearch: overrides.perSearch ?? builtIn.perSearch,
  };
}

/** Cents of a cent matter when summed over a month: keep 6 decimals (a millionth of a dollar). */
function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Tokens and searches times the prices, or the provider's own figure when it gives one. */
export function costOf(tokens: TokenUsage, prices: Prices): number | null {
  if (typeof tokens.reportedCostUsd === 'number' && Number.isFinite(tokens.reportedCostUsd)) {
    return roundUsd(tokens.reportedCostUsd);
  }
  const { inputPerMTok, outputPerMTok, perSearch } = prices;
  if (inputPerMTok === null || outputPerMTok === null || perSearch === null) return null;
  return roundUsd(
    (tokens.inputTokens * inputPerMTok) / 1e6 +
      (tokens.outputTokens * outputPerMTok) / 1e6 +
      tokens.searchCalls * perSearch,
  );
}

export function priceUsage(
  provider: string,
  model: string,
  tokens: TokenUsage,
  prices: Prices,
): ProviderUsage {
  return {
    provider,
    model,
    input_tokens: tokens.inputTokens,
    output_tokens: tokens.outputTokens,
    search_calls: tokens.searchCalls,
    cost_usd: costOf(tokens, prices),
  };
}

/** A non-negative integer count from a reply, 0 when it is missing or not a number. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
