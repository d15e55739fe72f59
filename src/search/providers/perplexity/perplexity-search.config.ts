import type { EnvReader } from '../../../config/env-reader';

export const DEFAULT_PERPLEXITY_MODEL = 'perplexity/sonar';

export function readPerplexityConfig(read: EnvReader) {
  return {
    perplexity: {
      apiKey: read.optional('PERPLEXITY_API_KEY'),
      baseUrl: read.baseUrl('PERPLEXITY_BASE_URL') ?? 'https://api.perplexity.ai',
      model: read.string('PERPLEXITY_MODEL', DEFAULT_PERPLEXITY_MODEL),
    },
  };
}
export type PerplexityConfig = ReturnType<typeof readPerplexityConfig>;
