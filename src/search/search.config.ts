import { defineConfig, type ConfigOf } from '../config/config-slice';
import { alternatives, type EnvReader } from '../config/env-reader';
import type { EnvVariable } from '../config/env-variable';
import {
  requiredVariables,
  type ProviderConfigsOf,
  type SearchProviderDefinition,
} from './search-provider.definition';
import { SEARCH_PROVIDERS } from './search-provider.registry';

type Providers = readonly SearchProviderDefinition[];

/**
 * `SEARCH_PROVIDER`: the named provider, whose required variables must all be set;
 * unset, the first registered provider whose required variables are set; none: null.
 */
function selectSearchProvider(read: EnvReader, providers: Providers): string | null {
  const isSet = (variable: string) => read.isSet(variable);
  const requested = read.raw('SEARCH_PROVIDER')?.toLowerCase();
  if (requested === undefined) {
    return providers.find((provider) => requiredVariables(provider).every(isSet))?.name ?? null;
  }
  const definition = providers.find((provider) => provider.name === requested);
  if (definition === undefined) {
    const names = providers.map((provider) => provider.name);
    read.problem(`SEARCH_PROVIDER: expected ${alternatives(names)}, got "${requested}"`);
    return null;
  }
  const missing = requiredVariables(definition).filter((variable) => !isSet(variable));
  if (missing.length > 0) {
    read.problem(`SEARCH_PROVIDER=${requested}: set ${missing.join(', ')}`);
  }
  return requested;
}

/** The configuration slice of `providers`: the one that runs checks, prices, their variables. */
export function searchConfigOf<const P extends Providers>(providers: P) {
  return defineConfig('search', (read) => ({
    /** The provider that runs checks (README, "Search providers"); null: none is configured. */
    provider: selectSearchProvider(read, providers),
    /** `PRICE_*` overrides of the built-in list prices (USD). */
    prices: {
      inputPerMTok: read.decimal('PRICE_INPUT_PER_MTOK', 0),
      outputPerMTok: read.decimal('PRICE_OUTPUT_PER_MTOK', 0),
      perSearch: read.decimal('PRICE_PER_SEARCH', 0),
    },
    ...(Object.assign(
      {},
      ...providers.map((provider) => provider.readConfig(read)),
    ) as ProviderConfigsOf<P> & object),
  }));
}

/** `SEARCH_PROVIDER` and every variable of `providers`, as `.env.example` and the README list them. */
export function searchVariablesOf(providers: Providers): EnvVariable[] {
  const names = providers.map((provider) => `\`${provider.name}\``);
  return [
    {
      name: 'SEARCH_PROVIDER',
      description: `Which provider runs checks: ${alternatives(names)}. Unset: the first of these whose variables are set; none set: no provider. Set but its variables missing: start-up fails naming them`,
    },
    ...providers.flatMap((provider) => provider.variables),
  ];
}

/** The provider that runs checks, the price overrides, and every provider's own variables. */
export const searchConfig = searchConfigOf(SEARCH_PROVIDERS);
export type SearchConfig = ConfigOf<typeof searchConfig>;
