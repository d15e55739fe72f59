import type { EnvReader } from '../../../config/env-reader';
import type { ProviderVariable } from '../../search-provider.definition';

export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash';
const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

export const GEMINI_VARIABLES: readonly ProviderVariable[] = [
  {
    name: 'GEMINI_API_KEY',
    required: true,
    description: 'Enables the Gemini grounded-search provider (a secret)',
  },
  {
    name: 'GEMINI_BASE_URL',
    default: DEFAULT_GEMINI_BASE_URL,
    description: 'Gemini API base URL (tests point it at a local stand-in)',
  },
  { name: 'GEMINI_MODEL', default: DEFAULT_GEMINI_MODEL, description: 'Gemini model' },
];

export function readGeminiConfig(read: EnvReader) {
  return {
    gemini: {
      apiKey: read.optional('GEMINI_API_KEY'),
      baseUrl: read.baseUrl('GEMINI_BASE_URL') ?? DEFAULT_GEMINI_BASE_URL,
      model: read.string('GEMINI_MODEL', DEFAULT_GEMINI_MODEL),
    },
  };
}
export type GeminiConfig = ReturnType<typeof readGeminiConfig>;
