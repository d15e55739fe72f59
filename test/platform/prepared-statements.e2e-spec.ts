import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { queryRows, Statement } from '../../src/database/sql-rows';
import { createTestDatabase, dropTestDatabase } from '../support/test-app';

const PREPARED = "SELECT name FROM pg_prepared_statements WHERE name LIKE 's\\_%'";

describe('Statements run through queryRows', () => {
  let databaseUrl: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    // One connection: every query below sees the same session's prepared statements.
    dataSource = new DataSource(buildDataSourceOptions(databaseUrl, 1));
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await dropTestDatabase(databaseUrl);
  });

  it('should prepare a Statement once on the pool and answer its rows on every call', async () => {
    const statement = new Statement('SELECT $1::int + 1 AS next');
    expect(await queryRows(dataSource, statement, [1])).toEqual([{ next: 2 }]);
    expect(await queryRows(dataSource, statement, [41])).toEqual([{ next: 42 }]);
    expect(await queryRows(dataSource, PREPARED)).toEqual([{ name: statement.name }]);
  });

  it('should give one text one name, and another text another', () => {
    const text = 'SELECT $1::text AS value';
    expect(new Statement(text).name).toBe(new Statement(text).name);
    expect(new Statement(`${text} `).name).not.toBe(new Statement(text).name);
  });

  it("should run a Statement in the caller's transaction, prepared on its connection", async () => {
    const statement = new Statement('SELECT txid_current()::text AS transaction');
    const [inside, plain] = await dataSource.transaction(async (manager) => [
      await queryRows<{ transaction: string }>(manager, statement),
      await queryRows<{ transaction: string }>(
        manager,
        'SELECT txid_current()::text AS transaction',
      ),
    ]);
    expect(inside).toEqual(plain);
    const names = (await queryRows<{ name: string }>(dataSource, PREPARED)).map((row) => row.name);
    expect(names).toContain(statement.name);
  });

  it('should refuse a transaction that has ended rather than take a connection for it', async () => {
    const ended = await dataSource.transaction(async (manager) => manager);
    await expect(queryRows(ended, new Statement('SELECT 1 AS one'))).rejects.toMatchObject({
      name: 'QueryRunnerAlreadyReleasedError',
    });
  });

  it('should fail a Statement the way plain SQL fails, as a QueryFailedError', async () => {
    await expect(
      queryRows(dataSource, new Statement('SELECT 1 / $1::int AS quotient'), [0]),
    ).rejects.toMatchObject({ name: 'QueryFailedError', driverError: { code: '22012' } });
  });
});
