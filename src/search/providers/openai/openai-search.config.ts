import type { EnvReader } from '../../../config/env-reader';

export const DEFAULT_OPENAI_MODEL = 'gpt-5-mini';

export function readOpenAiConfig(read: EnvReader) {
  return {
    openai: {
      apiKey: read.optional('OPENAI_API_KEY'),
      baseUrl: read.baseUrl('OPENAI_BASE_URL') ?? 'https://api.openai.com/v1',
      model: read.string('OPENAI_MODEL', DEFAULT_OPENAI_MODEL),
    },
  };
}
export type OpenAiConfig = ReturnType<typeof readOpenAiConfig>;
