import { expectDetail } from '../support/errors';
import { JwksServer } from '../support/jwks-server';
import {
  createTestDatabase,
  dropTestDatabase,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/** Contract §11: the local user of `AUTH_DISABLED` acts only while authentication is off. */
describe('The local user of AUTH_DISABLED', () => {
  let databaseUrl: string;
  let jwks: JwksServer;
  const boot = (env: Record<string, string> = {}): Promise<TestApp> =>
    startTestApp({ databaseUrl, jwks, env });

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    jwks = await new JwksServer().start();
  });

  afterAll(async () => {
    await jwks.stop();
    await dropTestDatabase(databaseUrl);
  });

  it('should refuse its API keys and not be the user of a JWT with sub "local" once authentication is on, and keep its data', async () => {
    const disabled = await boot({ AUTH_DISABLED: 'true' });
    let key: string;
    let taskId: string;
    try {
      key = (
        (await disabled.http.post('/auth/api-keys').send({ name: 'dev key' }).expect(200)).body as {
          key: string;
        }
      ).key;
      taskId = (
        (
          await disabled.http
            .post('/api/v1/tasks')
            .send({ search_query: 'Made while authentication was off', state: 'paused' })
            .expect(200)
        ).body as { id: string }
      ).id;
    } finally {
      await disabled.close();
    }

    const enabled = await boot();
    try {
      for (const path of ['/admin/stats', '/auth/me', '/api/v1/tasks']) {
        expectDetail(
          await enabled.http.get(path).set('Authorization', `Bearer ${key}`),
          401,
          'Invalid API key',
        );
      }
      const localToken = await jwks.mint('local', { email: 'someone@example.com' });
      const asLocal = await enabled.http
        .get('/auth/me')
        .set('Authorization', `Bearer ${localToken}`);
      expect(asLocal.status).toBe(401);
      expectDetail(
        await enabled.http.get('/admin/stats').set('Authorization', `Bearer ${localToken}`),
        401,
        'Invalid token',
      );
      const stored = await enabled.db.query<{ state: string; email: string }>(
        "SELECT state, email FROM users WHERE clerk_user_id = 'local'",
      );
      expect(stored.rows).toEqual([{ state: 'deactivated', email: 'local@localhost' }]);
      const tasks = await enabled.db.query('SELECT id FROM tasks WHERE id = $1', [taskId]);
      expect(tasks.rowCount).toBe(1);
    } finally {
      await enabled.close();
    }

    // Authentication off again: the same user, its data, and its key no longer needed.
    const again = await boot({ AUTH_DISABLED: 'true' });
    try {
      const tasks = (await again.http.get('/api/v1/tasks').expect(200)).body as Array<{
        id: string;
      }>;
      expect(tasks.map((task) => task.id)).toContain(taskId);
      await again.http.get('/admin/stats').expect(200);
    } finally {
      await again.close();
    }
  });
});
