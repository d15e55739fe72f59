import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pino from 'pino';
import { ConfigValidationError, loadConfig, type AppConfig } from './app.config';
import { createRootLogger, type RootLogger } from './common/logging/root-logger';
import { LOG_SECRETS } from './log-secrets';
import { createApp } from './create-app';
import { loadEnvFile } from './config/env-file';
import { prepareDatabase, type PreparedDatabase } from './database/prepare-database';
import { limitHeapGrowth } from './heap-growth';
import { startupSummary } from './startup-summary';

/** Ctrl-C, an orchestrator's stop and a closed terminal all stop the service the same way. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** A shutdown still under way after this long ends the process anyway. */
const SHUTDOWN_DEADLINE_MS = 30_000;

interface Service {
  app: NestExpressApplication;
  database: PreparedDatabase;
}

/** Lines written before the configuration is known (or when it is refused) go to stderr. */
function startupLogger(): RootLogger {
  return createRootLogger({
    level: 'info',
    destination: pino.destination({ fd: 2, sync: true }),
    secrets: LOG_SECRETS,
  });
}

let logger: RootLogger | undefined;

/** The database (the embedded server started when there is no `DATABASE_URL`), then the app. */
async function startService(config: AppConfig, root: RootLogger): Promise<Service> {
  const database = await prepareDatabase(config.database, root);
  const app = await createApp(config, database.url, root).catch(async (error: unknown) => {
    await database.embedded?.stop(); // never leave the embedded server behind a failed start
    throw error;
  });
  return { app, database };
}

/**
 * HTTP, the workers and the pool (`app.close()`), then the embedded server, which runs in a
 * session of its own so that no signal reaches it before the service is done with it.
 */
async function stopService({ app, database }: Service, root: RootLogger): Promise<void> {
  try {
    await app.close();
  } catch (error) {
    root.error({ err: error }, 'Error while closing');
  }
  try {
    await database.embedded?.stop();
  } catch (error) {
    root.error({ err: error }, 'Error while stopping the embedded database');
  }
}

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
  limitHeapGrowth(config.scheduler.workerEnabled);
  const root = createRootLogger({ level: config.server.logLevel, secrets: LOG_SECRETS });
  logger = root;

  // A signal during start-up lets the start finish, then stops what it started, in order.
  const starting = startService(config, root);
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    root.info({ signal }, 'Shutting down');
    const forceExit = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS);
    forceExit.unref();
    void (async () => {
      // A start that fails ends the process itself ('Start-up failed').
      const service = await starting.catch(() => null);
      if (!service) return;
      await stopService(service, root);
      root.info('Stopped');
      process.exit(0);
    })();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => shutdown(signal));

  const service = await starting;
  if (closing) return;
  try {
    await service.app.listen(config.server.port, config.server.host);
  } catch (error) {
    await stopService(service, root);
    throw error;
  }
  // One line that says how this instance is set up (README, "Running it locally"); no secrets in it.
  root.info(startupSummary(config, service.database.embedded !== null));
}

bootstrap().catch((error: unknown) => {
  (logger ?? startupLogger()).fatal({ err: error }, 'Start-up failed');
  process.exit(1);
});
