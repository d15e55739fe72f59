import type { EnvReader } from '../../../config/env-reader';
import type { ProviderVariable } from '../../search-provider.definition';

export const DEFAULT_OPENAI_MODEL = 'gpt-5-mini';
const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export const OPENAI_VARIABLES: readonly ProviderVariable[] = [
  {
    name: 'OPENAI_API_KEY',
    required: true,
    description: 'Enables the OpenAI provider (Responses API with the `web_search` tool; a secret)',
  },
  { name: 'OPENAI_BASE_URL', default: DEFAULT_OPENAI_BASE_URL, description: 'OpenAI API base URL' },
  {
    name: 'OPENAI_MODEL',
    default: DEFAULT_OPENAI_MODEL,
    description: 'An OpenAI model that supports the web search tool',
  },
];

export function readOpenAiConfig(read: EnvReader) {
  return {
    openai: {
      apiKey: read.optional('OPENAI_API_KEY'),
      baseUrl: read.baseUrl('OPENAI_BASE_URL') ?? DEFAULT_OPENAI_BASE_URL,
      model: read.string('OPENAI_MODEL', DEFAULT_OPENAI_MODEL),
    },
  };
}
export type OpenAiConfig = ReturnType<typeof readOpenAiConfig>;
