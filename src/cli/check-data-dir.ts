import { readConfig } from '../config/config-slice';
import { loadEnvFile } from '../config/env-file';
import { createRootLogger } from '../common/logging/root-logger';
import { databaseConfig, type DatabaseConfig } from '../database/database.config';
import { DataDirectoryInUseError } from '../database/embedded/data-directory-lock';
import { EmbeddedDatabase } from '../database/embedded/embedded-database';

/**
 * `npm start` runs this before it builds (scripts/build.ts): when a running instance of the
 * service holds the embedded database's `DATA_DIR`, the start fails here, with the line the
 * service itself would log, and the running instance's `dist/` is left alone. Anything else (a
 * `DATABASE_URL`, a bad variable, a lock that cannot be read) is left to the service to judge
 * once built. Answers the exit code: 1 when the directory is in use.
 */
export async function checkDataDir(): Promise<number> {
  loadEnvFile();
  let config: DatabaseConfig;
  try {
    config = readConfig(process.env, { database: databaseConfig }).database;
  } catch {
    return 0;
  }
  if (config.url !== null) return 0;
  const silent = { log: () => undefined, warn: () => undefined };
  try {
    await new EmbeddedDatabase(config.dataDir, silent).assertNotInUse();
  } catch (error) {
    if (!(error instanceof DataDirectoryInUseError)) return 0;
    // The line names a directory and a pid: the log's own shapes are enough, and the provider and
    // channel registries stay unloaded on this path, which runs before every `npm start`.
    createRootLogger({ level: 'info', secrets: [] }).fatal({ err: error }, 'Start-up failed');
    return 1;
  }
  return 0;
}
