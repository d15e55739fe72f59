import { expectDetail } from '../support/errors';
import { JwksServer } from '../support/jwks-server';
import {
  createTestDatabase,
  dropTestDatabase,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/** The local user of `AUTH_DISABLED` acts only while authentication is off (docs/api.md). */
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

/** With authentication off, a page of another site must not reach the service (DNS rebinding). */
describe('Host names answered with AUTH_DISABLED', () => {
  let open: TestApp;

  beforeAll(async () => {
    open = await startTestApp({
      env: { AUTH_DISABLED: 'true', PUBLIC_URL: 'https://Monitor.Example.com:8443/base' },
    });
  });

  afterAll(async () => {
    await open.close();
  });

  const routes: Array<['get' | 'post', string]> = [
    ['get', '/health'],
    ['get', '/metrics'],
    ['get', '/docs'],
    ['get', '/openapi.json'],
    ['get', '/console'],
    ['post', '/mcp'],
    ['get', '/api/v1/tasks'],
    ['get', '/admin/stats'],
    ['get', '/auth/me'],
    ['post', '/public/waitlist'],
    ['get', '/no-such-path'],
  ];

  it.each([
    'attacker.example',
    'attacker.example:3000',
    'localhost.attacker.example',
    '127.0.0.1.nip.io',
    'monitor.example.com.attacker.example',
    'localhost@attacker.example',
    '[::2]',
    '[::1].attacker.example',
  ])('should answer 421 "Misdirected request" on every route when Host is %s', async (host) => {
    for (const [method, path] of routes) {
      const response = await open.http[method](path).set('Host', host);
      expect({ path, status: response.status, body: response.body as unknown }).toEqual({
        path,
        status: 421,
        body: { detail: 'Misdirected request' },
      });
    }
  });

  it.each([
    'localhost',
    'localhost:3000',
    'LocalHost:1',
    '127.0.0.1',
    '127.0.0.1:8080',
    '[::1]',
    '[::1]:3000',
    'monitor.example.com',
    'MONITOR.example.com:8443',
  ])('should answer as usual when Host is %s', async (host) => {
    await open.http.get('/health').set('Host', host).expect(200);
    await open.http.get('/auth/me').set('Host', host).expect(200);
  });

  it('should answer any Host when authentication is on', async () => {
    const closed = await startTestApp({ databaseUrl: open.databaseUrl, jwks: open.jwks });
    try {
      await closed.http.get('/health').set('Host', 'attacker.example').expect(200);
      expectDetail(
        await closed.http.get('/auth/me').set('Host', 'attacker.example'),
        401,
        'Authorization header missing',
      );
    } finally {
      await closed.close();
    }
  });
});
