import type { EnvReader } from '../../../config/env-reader';

/** SearXNG finds the results; any OpenAI-compatible chat server judges them. */
export function readSearxngConfig(read: EnvReader) {
  return {
    searxng: { url: read.baseUrl('SEARXNG_URL') },
    llm: {
      baseUrl: read.baseUrl('LLM_BASE_URL'),
      apiKey: read.optional('LLM_API_KEY'),
      model: read.optional('LLM_MODEL'),
    },
  };
}
export type SearxngConfig = ReturnType<typeof readSearxngConfig>;
