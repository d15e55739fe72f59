import 'reflect-metadata';
import pino from 'pino';
import { ConfigValidationError, loadConfig, type AppConfig } from './app.config';
import { createRootLogger, type RootLogger } from './common/logging/root-logger';
import { createApp } from './create-app';
import { loadEnvFile } from './config/env-file';
import { prepareDatabase } from './database/prepare-database';
import { startupSummary } from './startup-summary';

/** Lines written before the configuration is known (or when it is refused) go to stderr. */
function startupLogger(): RootLogger {
  return createRootLogger({ level: 'info', destination: pino.destination({ fd: 2, sync: true }) });
}

let logger: RootLogger | undefined;

async function bootstrap(): Promise<void> {
  loadEnvFile();
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      // One message lists every bad variable.
      startupLogger().fatal({ problems: error.problems }, error.message);
      process.exit(1);
    }
    throw error;
  }
  const root = createRootLogger({ level: config.server.logLevel });
  logger = root;
  const database = await prepareDatabase(config.database, root);
  const app = await createApp(config, database.url, root).catch(async (error: unknown) => {
    await database.embedded?.stop(); // never leave the embedded server behind a failed start
    throw error;
  });

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    root.info({ signal }, 'Shutting down');
    const forceExit = setTimeout(() => process.exit(1), 30_000);
    forceExit.unref();
    void (async () => {
      try {
        await app.close(); // stops HTTP, workers, then the pool
      } catch (error) {
        root.error({ err: error }, 'Error while closing');
      }
      await database.embedded?.stop();
      process.exit(0);
    })();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  try {
    await app.listen(config.server.port, config.server.host);
  } catch (error) {
    await app.close().catch(() => undefined);
    await database.embedded?.stop();
    throw error;
  }
  // One line that says how this instance is set up (README, "Run it"); no secrets in it.
  root.info(startupSummary(config, database.embedded !== null));
}

bootstrap().catch((error: unknown) => {
  (logger ?? startupLogger()).fatal({ err: error }, 'Start-up failed');
  process.exit(1);
});
