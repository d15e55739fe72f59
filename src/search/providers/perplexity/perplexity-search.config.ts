import type { EnvReader } from '../../../config/env-reader';
import type { ProviderVariable } from '../../search-provider.definition';

export const DEFAULT_PERPLEXITY_MODEL = 'perplexity/sonar';
const DEFAULT_PERPLEXITY_BASE_URL = 'https://api.perplexity.ai';

export const PERPLEXITY_VARIABLES: readonly ProviderVariable[] = [
  {
    name: 'PERPLEXITY_API_KEY',
    required: true,
    description: 'Enables the Perplexity provider (Agent API; a secret)',
  },
  {
    name: 'PERPLEXITY_BASE_URL',
    default: DEFAULT_PERPLEXITY_BASE_URL,
    description: 'Perplexity API base URL',
  },
  { name: 'PERPLEXITY_MODEL', default: DEFAULT_PERPLEXITY_MODEL, description: 'Perplexity model' },
];

export function readPerplexityConfig(read: EnvReader) {
  return {
    perplexity: {
      apiKey: read.optional('PERPLEXITY_API_KEY'),
      baseUrl: read.baseUrl('PERPLEXITY_BASE_URL') ?? DEFAULT_PERPLEXITY_BASE_URL,
      model: read.string('PERPLEXITY_MODEL', DEFAULT_PERPLEXITY_MODEL),
    },
  };
}
export type PerplexityConfig = ReturnType<typeof readPerplexityConfig>;
