import { randomBytes } from 'node:crypto';
import { expectDetail, expectRateLimited } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';
import { inOneWindow } from '../sharing/sharing-fixtures';
import { ROOMY_RATE_LIMITS } from '../tasks/task-api';

const METRICS_TOKEN = 'metrics-token-for-tests';

/** A well-formed key that no one holds. */
function randomKey(): string {
  return `sk_${randomBytes(24)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, 32)}`;
}

/** An IPv4 client of its own. */
function ipv4(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

/** A /64 of its own, as `2001:db8:xxxx:xxxx`; append `::1` or more groups for an address. */
function ipv6Network(): string {
  const hex = randomBytes(4).toString('hex');
  return `2001:db8:${hex.slice(0, 4)}:${hex.slice(4)}`;
}

/**
 * Failed authentication is limited per IP (docs/api.md, "Rate limits"). The app runs as if behind
 * one proxy (TRUST_PROXY=1): the client address is the last X-Forwarded-For entry.
 */
describe('Failed authentication limit per IP', () => {
  let testApp: TestApp;
  let factory: Factory;
  let user: TestUser;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { ...ROOMY_RATE_LIMITS, TRUST_PROXY: '1', METRICS_TOKEN },
    });
    factory = new Factory(testApp);
    user = await factory.user();
  });

  afterAll(async () => {
    await testApp.close();
  });

  function me(ip: string, auth?: string) {
    const call = testApp.http.get('/auth/me').set('X-Forwarded-For', ip);
    return auth === undefined ? call : call.set('Authorization', auth);
  }

  it('should answer 429 to the 31st failed request of a minute from one IP, before looking the credential up', async () => {
    await inOneWindow(testApp, async () => {
      // A key no run has used: a run that crossed a window may have let its key through.
      const holder = await factory.user();
      const ip = ipv4();
      for (let index = 0; index < 30; index += 1) {
        // Missing, malformed, unknown keys and bad tokens all count.
        const auth = [undefined, 'Bearer sk_short', `Bearer ${randomKey()}`, 'Bearer a.b.c'][
          index % 4
        ];
        expect((await me(ip, auth)).status).toBe(401);
      }
      const limited = await me(ip, `Bearer ${randomKey()}`);
      expectRateLimited(limited);
      // A valid key from that IP is not even looked up now: 429, and its last use stays unset.
      expectRateLimited(await me(ip, holder.auth));
      const keys = await testApp.http
        .get('/auth/api-keys')
        .set('X-Forwarded-For', ipv4())
        .set('Authorization', `Bearer ${holder.jwt}`)
        .expect(200);
      expect((keys.body as Array<{ last_used_at: string | null }>)[0].last_used_at).toBeNull();
      // Another IP is not affected.
      await me(ipv4(), holder.auth).expect(200);
      expectDetail(await me(ipv4(), `Bearer ${randomKey()}`), 401, 'Invalid API key');
    });
  });

  it('should count missing and wrong /metrics tokens, and answer /metrics 429 past the limit', async () => {
    await inOneWindow(testApp, async () => {
      const ip = ipv4();
      const metrics = (auth?: string) => {
        const call = testApp.http.get('/metrics').set('X-Forwarded-For', ip);
        return auth === undefined ? call : call.set('Authorization', auth);
      };
      for (let index = 0; index < 30; index += 1) {
        const auth = [undefined, `Bearer ${METRICS_TOKEN}x`, `Basic ${METRICS_TOKEN}`][index % 3];
        expect((await metrics(auth)).status).toBe(401);
      }
      expectRateLimited(await metrics(`Bearer ${METRICS_TOKEN}`));
      // One count with the API's credentials: that client's API key is refused too.
      expectRateLimited(await me(ip, user.auth));
      await testApp.http
        .get('/metrics')
        .set('X-Forwarded-For', ipv4())
        .set('Authorization', `Bearer ${METRICS_TOKEN}`)
        .expect(200);
    });
  });

  it('should not count anonymous callers of public and optional routes, nor successful requests', async () => {
    await inOneWindow(testApp, async () => {
      const ip = ipv4();
      const task = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .send({ search_query: 'Anonymous readers are not failures', state: 'paused' })
        .expect(200);
      const id = (task.body as { id: string }).id;
      await testApp.db.query('UPDATE tasks SET is_public = true WHERE id = $1', [id]);
      for (let index = 0; index < 35; index += 1) {
        await testApp.http.get(`/api/v1/tasks/${id}`).set('X-Forwarded-For', ip).expect(200);
        await me(ip, user.auth).expect(200);
      }
      await testApp.http
        .get('/health')
        .set('X-Forwarded-For', ip)
        .set('Authorization', 'Bearer nonsense');
      expectDetail(await me(ip, `Bearer ${randomKey()}`), 401, 'Invalid API key');
    });
  });

  it('should count an IPv6 client by its /64, for failures and for per-IP endpoint limits', async () => {
    await inOneWindow(testApp, async () => {
      const network = ipv6Network();
      const first = `${network}::1`;
      const second = `${network}:ffff:ffff:ffff:fffe`;
      for (let index = 0; index < 15; index += 1) {
        expect((await me(first, `Bearer ${randomKey()}`)).status).toBe(401);
        expect((await me(second, `Bearer ${randomKey()}`)).status).toBe(401);
      }
      expectRateLimited(await me(`${network}::abcd`, `Bearer ${randomKey()}`));
      // The neighbouring /64 is another client.
      expectDetail(
        await me(`${ipv6Network()}::1`, `Bearer ${randomKey()}`),
        401,
        'Invalid API key',
      );

      // The waitlist takes 5 a minute per client: two addresses of one /64 share them.
      const list = ipv6Network();
      const join = (ip: string) =>
        testApp.http
          .post('/public/waitlist')
          .set('X-Forwarded-For', ip)
          .send({ email: `${randomBytes(6).toString('hex')}@example.com` });
      for (let index = 0; index < 5; index += 1)
        await join(index % 2 === 0 ? `${list}::1` : `${list}::2`).expect(200);
      expectRateLimited(await join(`${list}:1:2:3:4`));
      await join(`${ipv6Network()}::1`).expect(200);
    });
  });
});

describe('Failed authentication limit: configuration', () => {
  it('should follow RATE_LIMIT_AUTH_FAILURES_PER_MINUTE', async () => {
    // Behind a proxy, so each run of the burst is a client of its own.
    const testApp = await startTestApp({
      env: { RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '3', TRUST_PROXY: '1' },
    });
    try {
      expect(testApp.config.rateLimit.authFailuresPerMinute).toBe(3);
      await inOneWindow(testApp, async () => {
        const ip = ipv4();
        const tasks = () => testApp.http.get('/api/v1/tasks').set('X-Forwarded-For', ip);
        for (let index = 0; index < 3; index += 1) expect((await tasks()).status).toBe(401);
        expectRateLimited(await tasks());
      });
    } finally {
      await testApp.close();
    }
  });
});

describe('API key limit per user', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: ROOMY_RATE_LIMITS });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('should hold 50 active keys per user when creates race each other, and answer 409 past them', async () => {
    const user = await new Factory(testApp).user(); // one key already
    const create = () =>
      testApp.http.post('/auth/api-keys').set('Authorization', user.auth).send({ name: 'more' });
    for (let index = 0; index < 45; index += 1) await create().expect(200);
    const responses = await Promise.all(Array.from({ length: 10 }, create));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    for (const response of responses.filter((candidate) => candidate.status !== 200))
      expectDetail(response, 409, 'API key limit reached (50)');
    const active = await testApp.db.query(
      "SELECT 1 FROM api_keys WHERE user_id = $1 AND state = 'active'",
      [user.id],
    );
    expect(active.rowCount).toBe(50);

    // A revoked key frees a place.
    const keys = (await testApp.http.get('/auth/api-keys').set('Authorization', user.auth))
      .body as Array<{ id: string }>;
    const revocable = keys.find((key) => key.id !== user.apiKeyId) as { id: string };
    await testApp.http
      .delete(`/auth/api-keys/${revocable.id}`)
      .set('Authorization', user.auth)
      .expect(200);
    await create().expect(200);
    expectDetail(await create(), 409, 'API key limit reached (50)');
  });
});
