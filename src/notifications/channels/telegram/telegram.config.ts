import { defineConfig, type ConfigOf } from '../../../config/config-slice';

export const telegramConfig = defineConfig('telegram', (read) => ({
  /** Base URL of the Telegram Bot API, without a trailing slash. */
  telegramApiBaseUrl: read.baseUrl('TELEGRAM_API_BASE_URL') ?? 'https://api.telegram.org',
}));
export type TelegramConfig = ConfigOf<typeof telegramConfig>;
