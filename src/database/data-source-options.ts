import { join } from 'node:path';
import type { Logger } from 'pino';
import type { DataSourceOptions } from 'typeorm';
import { DatabaseLogger } from './database-logger';
import { SnakeNamingStrategy } from './snake-naming.strategy';

const FROM_TYPESCRIPT = __filename.endsWith('.ts');

/**
 * The top-level `migrations/` folder: beside `src/` when running from TypeScript (tests, the
 * migration CLI), compiled to `dist/migrations/` beside this file's `dist/database/` otherwise.
 */
const MIGRATIONS_DIR = FROM_TYPESCRIPT
  ? join(__dirname, '..', '..', 'migrations')
  : join(__dirname, '..', 'migrations');

/**
 * Every entity of the schema: each feature's `*.entity.ts` files, found where they are (a new
 * entity needs no list). Migrations must describe exactly these
 * (test/platform/migration-drift.e2e-spec.ts).
 */
const ENTITIES = join(__dirname, '..', '**', FROM_TYPESCRIPT ? '*.entity.ts' : '*.entity.js');

/**
 * Options shared by the application, the migration CLI and the tests. With `logger`, TypeORM logs
 * there (`DatabaseLogger`: a failed statement by its SQLSTATE and name only); without one, it
 * logs nothing (its own loggers would print a failed statement's parameters), and a failure
 * reaches the caller as an error.
 */
export function buildDataSourceOptions(
  url: string,
  poolSize = 10,
  logger?: Logger,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [ENTITIES],
    migrations: [join(MIGRATIONS_DIR, '*.{ts,js}')],
    migrationsTableName: 'schema_migrations',
    namingStrategy: new SnakeNamingStrategy(),
    // gen_random_uuid() is built into PostgreSQL 13+, no extension to install.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    synchronize: false,
    migrationsRun: false,
    ...(logger ? { logger: new DatabaseLogger(logger) } : { logging: false }),
    extra: { max: poolSize, connectionTimeoutMillis: 10_000 },
    applicationName: 'task-monitor',
  };
}
