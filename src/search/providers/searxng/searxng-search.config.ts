import type { EnvReader } from '../../../config/env-reader';
import type { ProviderVariable } from '../../search-provider.definition';

export const SEARXNG_VARIABLES: readonly ProviderVariable[] = [
  {
    name: 'LLM_BASE_URL',
    required: true,
    description:
      "An OpenAI-compatible chat server, e.g. `http://ollama:11434/v1` (Ollama); with `LLM_MODEL`: the `searxng` provider, which judges SearXNG's results and reads the pages of page monitors",
  },
  {
    name: 'LLM_MODEL',
    required: true,
    description: 'The chat model of `LLM_BASE_URL`, e.g. `qwen3:8b`',
  },
  {
    name: 'SEARXNG_URL',
    description:
      "A SearXNG instance with its JSON format enabled (`search.formats: [html, json]`), e.g. `http://localhost:8080`: the `searxng` provider's web searches. Unset, that provider checks only tasks with pages",
  },
  {
    name: 'LLM_API_KEY',
    description:
      'Sent to `LLM_BASE_URL` as `Authorization: Bearer` when set (Ollama needs none; a secret)',
  },
];

/**
 * Any OpenAI-compatible chat server judges what SearXNG finds, or the pages of a page task; without
 * SearXNG only the latter.
 */
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
