import { attentionConfig } from './attention/attention.config';
import { authConfig } from './auth/auth.config';
import { rateLimitConfig } from './common/rate-limit/rate-limit.config';
import { readConfig, type ConfigValues } from './config/config-slice';
import { consoleConfig } from './console/console.config';
import type { Env } from './config/env-reader';
import { serverConfig } from './config/server.config';
import { databaseConfig } from './database/database.config';
import { executionsConfig } from './executions/executions.config';
import { mcpConfig } from './mcp/mcp.config';
import { metricsConfig } from './metrics/metrics.config';
import { pagesConfig } from './pages/pages.config';
import { browserConfig } from './pages/browser/browser.config';
import { CHANNEL_CONFIGS } from './notifications/channels/channel-registry';
import { notificationsConfig } from './notifications/notifications.config';
import { retentionConfig } from './retention/retention.config';
import { schedulerConfig } from './scheduler/scheduler.config';
import { searchConfig } from './search/search.config';
import { tasksConfig } from './tasks/tasks.config';
import { usageConfig } from './usage/usage.config';
import { usersConfig } from './users/users.config';

export { ConfigValidationError } from './config/env-reader';

/**
 * The composition root of the configuration (README, "Configuration"): every feature declares its
 * slice beside its code, and this list gathers them. Channels bring their own slices through the
 * channel registry.
 */
export const CONFIG_SLICES = {
  server: serverConfig,
  auth: authConfig,
  users: usersConfig,
  database: databaseConfig,
  rateLimit: rateLimitConfig,
  scheduler: schedulerConfig,
  search: searchConfig,
  pages: pagesConfig,
  browser: browserConfig,
  usage: usageConfig,
  tasks: tasksConfig,
  executions: executionsConfig,
  retention: retentionConfig,
  notifications: notificationsConfig,
  attention: attentionConfig,
  metrics: metricsConfig,
  mcp: mcpConfig,
  console: consoleConfig,
  ...Object.fromEntries(CHANNEL_CONFIGS.map((slice) => [slice.name, slice])),
};

/** The validated configuration of one service instance, slice by slice. */
export type AppConfig = ConfigValues<typeof CONFIG_SLICES>;

/**
 * Reads and validates every variable at once so start-up fails with one message that lists
 * every bad variable instead of stopping at the first (`ConfigValidationError`).
 */
export function loadConfig(env: Env = process.env): AppConfig {
  return readConfig(env, CONFIG_SLICES);
}
