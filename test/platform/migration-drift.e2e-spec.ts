import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';
import { createTestDatabase, dropTestDatabase } from '../support/test-app';

describe('Migrations and entities', () => {
  it('should leave nothing for TypeORM to change when every migration has run', async () => {
    const databaseUrl = await createTestDatabase();
    const dataSource = new DataSource(buildDataSourceOptions(databaseUrl, 2));
    try {
      await runMigrations(databaseUrl);
      await dataSource.initialize();
      // What `migration:generate` would write: empty when migrations and entities agree.
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((query) => query.query)).toEqual([]);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropTestDatabase(databaseUrl);
    }
  });
});
