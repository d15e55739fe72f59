import 'reflect-metadata';
import { ConfigValidationError, loadConfig, type AppConfig } from './app.config';
import { createApp } from './create-app';
import { JsonLogger } from './common/logging/json-logger';
import { loadEnvFile } from './config/env-file';
import { prepareDatabase } from './database/prepare-database';
import { startupSummary } from './startup-summary';

async function bootstrap(): Promise<void> {
  loadEnvFile();
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = new JsonLogger(config.server.logLevel);
  const database = await prepareDatabase(config.database, logger);
  const app = await createApp(config, database.url, logger).catch(async (error: unknown) => {
    await database.embedded?.stop(); // never leave the embedded server behind a failed start
    throw error;
  });

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    logger.log({ msg: 'Shutting down', signal });
    const forceExit = setTimeout(() => process.exit(1), 30_000);
    forceExit.unref();
    void (async () => {
      try {
        await app.close(); // stops HTTP, workers, then the pool
      } catch (error) {
        logger.error({ msg: 'Error while closing', error: String(error) });
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
  logger.log(startupSummary(config, database.embedded !== null));
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
