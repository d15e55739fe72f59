import type { DatabaseConfig } from './database.config';
import type { JsonLogger } from '../common/logging/json-logger';
import { EmbeddedDatabase } from './embedded-database';
import { runMigrations } from './migrate';

export interface PreparedDatabase {
  url: string;
  embedded: EmbeddedDatabase | null;
}

/** Starts the embedded server when no `DATABASE_URL` is set, then brings the schema up to date. */
export async function prepareDatabase(
  config: DatabaseConfig,
  logger: JsonLogger,
): Promise<PreparedDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.url;
  if (!url) {
    embedded = new EmbeddedDatabase(config.dataDir, {
      log: (message) => logger.log({ msg: message, context: 'EmbeddedDatabase' }),
      warn: (message) => logger.warn({ msg: message, context: 'EmbeddedDatabase' }),
    });
    url = await embedded.start();
  }
  try {
    const applied = await runMigrations(url);
    if (applied.length > 0) logger.log({ msg: 'Applied migrations', migrations: applied });
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  return { url, embedded };
}
