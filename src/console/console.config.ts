import { defineConfig, type ConfigOf } from '../config/config-slice';

export const consoleConfig = defineConfig('console', (read) => ({
  /** `CONSOLE_ENABLED`: serve the web console at `/console` (false: 404 there). */
  enabled: read.boolean('CONSOLE_ENABLED', true),
}));
export type ConsoleConfig = ConfigOf<typeof consoleConfig>;
