import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';

/** Arbitrary but fixed: every instance takes the same lock before touching the schema. */
const MIGRATION_LOCK_KEY = 7_315_246_001;

/**
 * Runs pending migrations under a PostgreSQL advisory lock, so several instances starting at the
 * same moment apply each migration exactly once: the first holds the lock, the others wait and
 * then find nothing left to do. TypeORM's lines go to `logger`, when given (`DatabaseLogger`).
 */
export async function runMigrations(databaseUrl: string, logger?: Logger): Promise<string[]> {
  const dataSource = new DataSource(buildDataSourceOptions(databaseUrl, 2, logger));
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}
