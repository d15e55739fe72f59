import type { DatabaseConfig } from './database.config';
import type { RootLogger } from '../common/logging/root-logger';
import { EmbeddedDatabase } from './embedded/embedded-database';
import { runMigrations } from './migrate';

export interface PreparedDatabase {
  url: string;
  embedded: EmbeddedDatabase | null;
}

export interface PrepareDatabaseOptions {
  /**
   * With the embedded database, use the server already running on `DATA_DIR` (the service's)
   * when there is one, instead of starting one: for commands run beside the service.
   */
  reuseRunningServer?: boolean;
}

/**
 * Starts the embedded server when no `DATABASE_URL` is set, then brings the schema up to date.
 * `embedded` is the server this call started (null when it started none), for the caller to stop.
 */
export async function prepareDatabase(
  config: DatabaseConfig,
  logger: RootLogger,
  options: PrepareDatabaseOptions = {},
): Promise<PreparedDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.url;
  if (!url) {
    const embeddedLogger = logger.child({ context: 'EmbeddedDatabase' });
    const server = new EmbeddedDatabase(config.dataDir, {
      log: (message) => embeddedLogger.info(message),
      warn: (message) => embeddedLogger.warn(message),
    });
    url = options.reuseRunningServer ? await server.runningServerUrl() : null;
    if (!url) {
      embedded = server;
      url = await server.start();
    }
  }
  try {
    const applied = await runMigrations(url, logger);
    if (applied.length > 0) logger.info({ migrations: applied }, 'Applied migrations');
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  return { url, embedded };
}
