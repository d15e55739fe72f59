import type { EnvReader } from '../../../config/env-reader';

export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash';

export function readGeminiConfig(read: EnvReader) {
  return {
    gemini: {
      apiKey: read.optional('GEMINI_API_KEY'),
      baseUrl: read.baseUrl('GEMINI_BASE_URL') ?? 'https://generativelanguage.googleapis.com',
      model: read.string('GEMINI_MODEL', DEFAULT_GEMINI_MODEL),
    },
  };
}
export type GeminiConfig = ReturnType<typeof readGeminiConfig>;
