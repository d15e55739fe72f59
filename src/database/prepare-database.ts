import type { DatabaseConfig } from './database.config';
import type { RootLogger } from '../common/logging/root-logger';
import { EmbeddedDatabase } from './embedded-database';
import { runMigrations } from './migrate';

export interface PreparedDatabase {
  url: string;
  embedded: EmbeddedDatabase | null;
}

/** Starts the embedded server when no `DATABASE_URL` is set, then brings the schema up to date. */
export async function prepareDatabase(
  config: DatabaseConfig,
  logger: RootLogger,
): Promise<PreparedDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.url;
  if (!url) {
    const embeddedLogger = logger.child({ context: 'EmbeddedDatabase' });
    embedded = new EmbeddedDatabase(config.dataDir, {
      log: (message) => embeddedLogger.info(message),
      warn: (message) => embeddedLogger.warn(message),
    });
    url = await embedded.start();
  }
  try {
    const applied = await runMigrations(url);
    if (applied.length > 0) logger.info({ migrations: applied }, 'Applied migrations');
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  return { url, embedded };
}
