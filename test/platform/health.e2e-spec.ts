import { Client } from 'pg';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const HEALTHY = { status: 'ok', database: 'ok', job_queue: 'ok' };

function unavailable(components: { database: string; job_queue: string }) {
  return { detail: 'Service unavailable', status: 'unavailable', ...components };
}

/** Runs SQL as the test server's administrator, outside the database under test. */
async function asAdministrator(sql: string): Promise<void> {
  const client = new Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * `GET /health` (docs/api.md, "Operations") with its dependencies really stopped: the job engine's
 * tables gone from reach, then the whole database refusing connections, and back.
 */
describe('GET /health when a dependency stops', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  async function waitForHealth(status: number): Promise<unknown> {
    return waitFor(
      async () => {
        const response = await testApp.http.get('/health');
        return response.status === status ? (response.body as unknown) : undefined;
      },
      { timeoutMs: 15_000, what: `GET /health answering ${status}` },
    );
  }

  it('should answer 503 with job_queue unavailable while the queue is out of reach, then 200', async () => {
    expect((await testApp.http.get('/health').expect(200)).body).toEqual(HEALTHY);

    await testApp.db.query('ALTER SCHEMA pgboss RENAME TO pgboss_stopped');
    try {
      const response = await testApp.http.get('/health');
      expect(response.status).toBe(503);
      expect(response.body).toEqual(unavailable({ database: 'ok', job_queue: 'unavailable' }));
    } finally {
      await testApp.db.query('ALTER SCHEMA pgboss_stopped RENAME TO pgboss');
    }

    expect(await waitForHealth(200)).toEqual(HEALTHY);
  });

  it('should answer 503 with both unavailable while PostgreSQL refuses connections, then 200', async () => {
    const name = new URL(testApp.databaseUrl).pathname.slice(1);
    await asAdministrator(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    try {
      await asAdministrator(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
      );
      const body = await waitForHealth(503);
      expect(body).toEqual(unavailable({ database: 'unavailable', job_queue: 'unavailable' }));
    } finally {
      await asAdministrator(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }

    // The process stayed up; its pool connects again.
    expect(await waitForHealth(200)).toEqual(HEALTHY);
  });
});
