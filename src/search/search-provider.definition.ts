import type { LogSecrets } from '../common/logging/log-redaction';
import type { EnvReader } from '../config/env-reader';
import type { EnvVariable } from '../config/env-variable';
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

/** One of a provider's variables; every `required` one must be set for the provider to run. */
export interface ProviderVariable extends EnvVariable {
  readonly required?: boolean;
}

/**
 * One search provider, described once (docs/extending.md): its `SEARCH_PROVIDER` name, its
 * variables with their descriptions, how it reads them, what of it the log must never show and
 * how it is built. The registry lists the definitions; the configuration, the no-provider message
 * and the log's redaction follow it, and a test holds `.env.example` and the README to it.
 */
export interface SearchProviderDefinition<N extends string = string, C extends object = object> {
  readonly name: N;
  /** Who runs the searches, as the no-provider message names it: "Gemini". */
  readonly label: string;
  /** Every variable `readConfig` reads, the required ones first. */
  readonly variables: readonly ProviderVariable[];
  /** Its own variables and defaults, under a key of its own (`{ gemini: {...} }`). */
  readConfig(read: EnvReader): C;
  /** The names of its config's secret fields and the shapes of its secrets in text. */
  readonly secrets?: LogSecrets;
  create(
    config: ProviderSettings & C,
    http: ProviderHttp,
    warn: (message: string) => void,
  ): SearchProvider;
}

/** The own configurations of `providers`, side by side (`{ gemini: {...}, openai: {...} }`). */
export type ProviderConfigsOf<P extends readonly SearchProviderDefinition[]> = UnionToIntersection<
  ReturnType<P[number]['readConfig']>
>;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

/** The names of the variables that must all be set for the provider to run. */
export function requiredVariables(definition: SearchProviderDefinition): string[] {
  return definition.variables
    .filter((variable) => variable.required === true)
    .map((variable) => variable.name);
}

export function defineSearchProvider<const N extends string, C extends object>(
  definition: SearchProviderDefinition<N, C>,
): SearchProviderDefinition<N, C> {
  return definition;
}
