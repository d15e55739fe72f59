import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
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

/** Options shared by the application, the migration CLI and the tests. */
export function buildDataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
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
    logging: ['error'],
    extra: { max: poolSize, connectionTimeoutMillis: 10_000 },
    applicationName: 'task-monitor',
  };
}
