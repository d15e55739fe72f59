import { defineConfig, type ConfigOf } from '../config/config-slice';
import { alternatives, type EnvReader } from '../config/env-reader';
import { SEARCH_PROVIDERS, type ProviderConfigs } from './search-provider.registry';

/**
 * `SEARCH_PROVIDER`: the named provider, whose variables must all be set;
 * unset, the first registered provider whose variables are set; none: null.
 */
function selectSearchProvider(read: EnvReader): string | null {
  const isSet = (variable: string) => read.isSet(variable);
  const requested = read.raw('SEARCH_PROVIDER')?.toLowerCase();
  if (requested === undefined) {
    return SEARCH_PROVIDERS.find((provider) => provider.variables.every(isSet))?.name ?? null;
  }
  const definition = SEARCH_PROVIDERS.find((provider) => provider.name === requested);
  if (definition === undefined) {
    const names = SEARCH_PROVIDERS.map((provider) => provider.name);
    read.problem(`SEARCH_PROVIDER: expected ${alternatives(names)}, got "${requested}"`);
    return null;
  }
  const missing = definition.variables.filter((variable) => !isSet(variable));
  if (missing.length > 0) {
    read.problem(`SEARCH_PROVIDER=${requested}: set ${missing.join(', ')}`);
  }
  return requested;
}

/** The provider that runs checks, the price overrides, and every provider's own variables. */
export const searchConfig = defineConfig('search', (read) => ({
  /** The provider that runs checks (README, "Search providers"); null: none is configured. */
  provider: selectSearchProvider(read),
  /** `PRICE_*` overrides of the built-in list prices (USD). */
  prices: {
    inputPerMTok: read.decimal('PRICE_INPUT_PER_MTOK', 0),
    outputPerMTok: read.decimal('PRICE_OUTPUT_PER_MTOK', 0),
    perSearch: read.decimal('PRICE_PER_SEARCH', 0),
  },
  ...(Object.assign(
    {},
    ...SEARCH_PROVIDERS.map((provider) => provider.readConfig(read)),
  ) as ProviderConfigs),
}));
export type SearchConfig = ConfigOf<typeof searchConfig>;
