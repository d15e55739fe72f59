import type { EnvReader } from '../../../config/env-reader';
import type { ProviderVariable } from '../../search-provider.definition';

export const SEARXNG_VARIABLES: readonly ProviderVariable[] = [
  {
    name: 'SEARXNG_URL',
    required: true,
    description:
      'A SearXNG instance with its JSON format enabled (`search.formats: [html, json]`), e.g. `http://localhost:8080`; with `LLM_BASE_URL` and `LLM_MODEL`: the `searxng` provider',
  },
  {
    name: 'LLM_BASE_URL',
    required: true,
    description:
      "An OpenAI-compatible chat server judging SearXNG's results, e.g. `http://ollama:11434/v1` (Ollama)",
  },
  {
    name: 'LLM_MODEL',
    required: true,
    description: 'The chat model of `LLM_BASE_URL`, e.g. `qwen3:8b`',
  },
  {
    name: 'LLM_API_KEY',
    description:
      'Sent to `LLM_BASE_URL` as `Authorization: Bearer` when set (Ollama needs none; a secret)',
  },
];

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
