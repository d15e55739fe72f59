import { SchedulerRegistry } from '@nestjs/schedule';
import { DELETE_BATCH } from '../../src/common/periodic-jobs/batched-deletion';
import { ExecutionRetentionSweeper } from '../../src/retention/execution-retention.sweeper';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

/**
 * EXECUTION_RETENTION_DAYS (default 180): old executions are deleted with their send records and
 * deliveries, except those still referred to. No worker runs here, so nothing but the sweep
 * changes the executions arranged in the database.
 */
describe('Execution retention', () => {
  let testApp: TestApp;
  /** A second instance on the same database. */
  let other: TestApp;
  let factory: Factory;
  let user: TestUser;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { WORKER_ENABLED: 'false' } });
    other = await startTestApp({
      databaseUrl: testApp.databaseUrl,
      jwks: testApp.jwks,
      env: { WORKER_ENABLED: 'false' },
    });
    factory = new Factory(testApp);
    user = await factory.user();
  });

  afterAll(async () => {
    await other.close();
    await testApp.close();
  });

  const sweep = (app: TestApp = testApp) => app.app.get(ExecutionRetentionSweeper).removeExpired();

  async function existing(table: string, column: string, ids: string[]): Promise<string[]> {
    const { rows } = await testApp.db.query<{ id: string }>(
      `SELECT ${column} AS id FROM ${table} WHERE ${column} = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map((row) => row.id).sort();
  }

  it('should delete old executions with their send records and keep those still referred to', async () => {
    const task = await factory.task(user);
    const oldSuccess = await factory.execution(task, { createdAt: daysAgo(300) });
    const oldFailure = await factory.execution(task, { status: 'failed', createdAt: daysAgo(250) });
    const delivered = await factory.execution(task, {
      conditionMet: true,
      createdAt: daysAgo(240),
    });
    const deliveredDelivery = await factory.delivery(task, delivered);
    const deliveredSend = await factory.send(user, task, delivered);
    const retrying = await factory.execution(task, { conditionMet: true, createdAt: daysAgo(230) });
    const retryingDelivery = await factory.delivery(task, retrying, 'retry_scheduled');
    const retryingSend = await factory.send(user, task, retrying, { status: 'failed' });
    const alerted = await factory.execution(task, { conditionMet: true, createdAt: daysAgo(220) });
    await testApp.db.query('UPDATE tasks SET alert_execution_id = $2 WHERE id = $1', [
      task.id,
      alerted,
    ]);
    const latestSuccess = await factory.execution(task, { createdAt: daysAgo(200) });
    const last = await factory.execution(task, {
      status: 'failed',
      createdAt: daysAgo(190),
      last: true,
    });

    const otherTask = await factory.task(user);
    const otherOld = await factory.execution(otherTask, {
      status: 'failed',
      createdAt: daysAgo(400),
    });
    const inFlight = await factory.execution(otherTask, {
      status: 'running',
      createdAt: daysAgo(300),
    });
    const otherSuccess = await factory.execution(otherTask, { createdAt: daysAgo(185) });
    const recent = await factory.execution(otherTask, {
      status: 'failed',
      createdAt: daysAgo(179),
    });

    expect(await sweep()).toBe(4);

    const kept = [retrying, alerted, latestSuccess, last, inFlight, otherSuccess, recent];
    const all = [oldSuccess, oldFailure, delivered, otherOld, ...kept];
    expect(await existing('executions', 'id', all)).toEqual([...kept].sort());
    expect(await existing('notification_sends', 'id', [deliveredSend, retryingSend])).toEqual([
      retryingSend,
    ]);
    expect(
      await existing('notification_deliveries', 'id', [deliveredDelivery, retryingDelivery]),
    ).toEqual([retryingDelivery]);
    const listed = await testApp.http
      .get(`/api/v1/tasks/${task.id}/executions`)
      .set('Authorization', user.auth)
      .expect(200);
    expect((listed.body as Array<{ id: string }>).map((item) => item.id)).toEqual([
      last,
      latestSuccess,
      alerted,
      retrying,
    ]);
    expect(await sweep()).toBe(0);
  });

  it('should pass over an execution another transaction holds, and delete it on a later run', async () => {
    const task = await factory.task(user);
    const held = await factory.execution(task, { status: 'failed', createdAt: daysAgo(200) });
    const free = await factory.execution(task, { status: 'failed', createdAt: daysAgo(201) });
    const client = await testApp.db.connect();
    try {
      // What a send record being inserted for it takes: the sweep must not wait for it.
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM executions WHERE id = $1 FOR KEY SHARE', [held]);
      expect(await sweep()).toBe(1);
      expect(await existing('executions', 'id', [held, free])).toEqual([held]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await sweep()).toBe(1);
    expect(await existing('executions', 'id', [held])).toEqual([]);
  });

  it('should share a backlog of several batches between instances sweeping at once', async () => {
    const task = await factory.task(user);
    const count = 2 * DELETE_BATCH + 201;
    await testApp.db.query(
      `INSERT INTO executions (task_id, status, started_at, completed_at, created_at)
       SELECT $1::uuid, 'failed', old, old, old
       FROM (SELECT now() - interval '200 days' - n * interval '1 second' AS old
             FROM generate_series(1, $2::int) AS n) AS arranged`,
      [task.id, count],
    );
    const [mine, theirs] = await Promise.all([sweep(testApp), sweep(other)]);
    expect(mine + theirs).toBe(count);
    const { rows } = await testApp.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM executions WHERE task_id = $1',
      [task.id],
    );
    expect(rows[0].count).toBe(0);
  });

  it('should keep every execution and schedule no sweep when EXECUTION_RETENTION_DAYS is 0', async () => {
    const keepForever = await startTestApp({
      databaseUrl: testApp.databaseUrl,
      jwks: testApp.jwks,
      env: { WORKER_ENABLED: 'false', EXECUTION_RETENTION_DAYS: '0' },
    });
    try {
      const task = await factory.task(user);
      const ancient = await factory.execution(task, { status: 'failed', createdAt: daysAgo(3650) });
      expect(await sweep(keepForever)).toBe(0);
      expect(await existing('executions', 'id', [ancient])).toEqual([ancient]);
      const intervals = (app: TestApp) => app.app.get(SchedulerRegistry).getIntervals();
      expect(intervals(keepForever)).not.toContain('execution-retention');
      expect(intervals(testApp)).toContain('execution-retention');
    } finally {
      await keepForever.close();
    }
  });
});
