import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { DatabaseSignals } from '../../src/database/database-signals';
import { createTestDatabase, dropTestDatabase } from '../support/test-app';
import { waitFor } from '../support/wait';

/** One instance's signals on its own pool, and what it heard on the channel `probe`. */
interface Instance {
  dataSource: DataSource;
  signals: DatabaseSignals;
  heard: string[];
}

/** docs/architecture.md, "Signals between instances". */
describe('Signals between instances', () => {
  let databaseUrl: string;
  const instances: Instance[] = [];

  async function instance(): Promise<Instance> {
    const dataSource = await new DataSource(buildDataSourceOptions(databaseUrl, 2)).initialize();
    const signals = new DatabaseSignals(dataSource);
    const heard: string[] = [];
    signals.listen('probe', (payload) => heard.push(payload));
    signals.onApplicationBootstrap();
    const started = { dataSource, signals, heard };
    instances.push(started);
    return started;
  }

  /** Sends `payload` from `from` until `to` has heard it (the connection opens in the background). */
  async function deliver(from: Instance, to: Instance, payload: string): Promise<void> {
    await waitFor(
      async () => {
        from.signals.send('probe', payload);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return to.heard.includes(payload);
      },
      { what: `'${payload}' heard` },
    );
  }

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });

  afterAll(async () => {
    for (const { signals, dataSource } of instances) {
      await signals.onApplicationShutdown();
      await dataSource.destroy();
    }
    await dropTestDatabase(databaseUrl);
  });

  it('should deliver a signal to the other instances and not back to its sender', async () => {
    const first = await instance();
    const second = await instance();
    await deliver(first, second, 'from the first');
    await deliver(second, first, 'from the second');
    expect(first.heard).not.toContain('from the first');
    expect(second.heard).not.toContain('from the second');
    expect(new Set(second.heard)).toEqual(new Set(['from the first']));
  });

  it('should refuse a channel that is not an identifier, and a second listener', async () => {
    const { signals } = await instance();
    expect(() => signals.listen('probe; DROP TABLE users', () => undefined)).toThrow(
      'not a channel name',
    );
    expect(() => signals.listen('probe', () => undefined)).toThrow('a channel has one listener');
  });
});
