import { defineConfig, type ConfigOf } from '../../../config/config-slice';
import type { EnvVariable } from '../../../config/env-variable';

const DEFAULT_TELEGRAM_API_BASE_URL = 'https://api.telegram.org';

export const TELEGRAM_VARIABLES: readonly EnvVariable[] = [
  {
    name: 'TELEGRAM_API_BASE_URL',
    default: DEFAULT_TELEGRAM_API_BASE_URL,
    description:
      "Telegram Bot API base URL (tests point it at a local receiver); the operator's own, so the SSRF guard does not apply to it",
  },
];

export const telegramConfig = defineConfig('telegram', (read) => ({
  /** Base URL of the Telegram Bot API, without a trailing slash. */
  telegramApiBaseUrl: read.baseUrl('TELEGRAM_API_BASE_URL') ?? DEFAULT_TELEGRAM_API_BASE_URL,
}));
export type TelegramConfig = ConfigOf<typeof telegramConfig>;
