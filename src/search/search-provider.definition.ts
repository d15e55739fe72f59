import type { EnvReader } from '../config/env-reader';
import type { CheckIntervalBounds } from './check-prompts';
import type { ProviderHttp } from './provider-api';
import type { Prices } from './provider-usage';
import type { SearchProvider } from './search-provider';

/** What every adapter is built with besides its own variables. */
export interface ProviderSettings {
  /** `PRICE_*` overrides of the built-in list prices (USD). */
  prices: Prices;
  /** Bounds the agent is told to keep `next_check_at` within. */
  scheduler: CheckIntervalBounds;
}

/**
 * One search provider, described once (STYLE.md, "Extension points"): its `SEARCH_PROVIDER` name,
 * the variables it needs, how it reads its own configuration and how it is built. The registry
 * lists the definitions; the configuration, the no-provider message and the README follow it.
 */
export interface SearchProviderDefinition<N extends string = string, C extends object = object> {
  readonly name: N;
  /** Who runs the searches, as the no-provider message names it: "Gemini". */
  readonly label: string;
  /** Every one must be set for the provider to run. */
  readonly variables: readonly string[];
  /** Its own variables and defaults, under a key of its own (`{ gemini: {...} }`). */
  readConfig(read: EnvReader): C;
  create(
    config: ProviderSettings & C,
    http: ProviderHttp,
    warn: (message: string) => void,
  ): SearchProvider;
}

export function defineSearchProvider<const N extends string, C extends object>(
  definition: SearchProviderDefinition<N, C>,
): SearchProviderDefinition<N, C> {
  return definition;
}
