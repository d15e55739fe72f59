import type { Response } from 'supertest';
import { expectDetail, expectRateLimited } from '../support/errors';
import { Factory } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';

const HOUR_SECONDS = 3600;

/** The end of the current one-hour window, in epoch seconds. */
function endOfHour(): number {
  return (Math.floor(Date.now() / 1000 / HOUR_SECONDS) + 1) * HOUR_SECONDS;
}

/** The three X-RateLimit headers of an answer and when its hour window ended at the time. */
async function rateLimitHeadersOf(
  call: () => Promise<Response>,
): Promise<{ response: Response; headers: string[]; hourEnds: string[] }> {
  const before = endOfHour();
  const response = await call();
  const headers = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) =>
    String(response.headers[name]),
  );
  return { response, headers, hourEnds: [String(before), String(endOfHour())] };
}

describe('Per-key rate limits', () => {
  let testApp: TestApp;
  let factory: Factory;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_PER_HOUR: '8', RATE_LIMIT_PER_DAY: '100' },
    });
    factory = new Factory(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('should send X-RateLimit headers and answer 429 with retry_after past the per-minute limit', async () => {
    const user = await factory.user();
    const first = await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
    expect(first.headers['x-ratelimit-limit']).toBe('5');
    expect(first.headers['x-ratelimit-remaining']).toBe('4');
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    for (let index = 0; index < 4; index += 1) {
      await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
    }
    const limited = await testApp.http.get('/auth/me').set('Authorization', user.auth);
    expectRateLimited(limited);
    const retryAfter = (limited.body as { retry_after: number }).retry_after;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['retry-after']).toBe(String(retryAfter));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('should count each API key separately', async () => {
    const user = await factory.user();
    const second = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .send({ name: 'other' })
      .expect(200);
    for (let index = 0; index < 4; index += 1) {
      await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
    }
    expect((await testApp.http.get('/auth/me').set('Authorization', user.auth)).status).toBe(429);
    await testApp.http
      .get('/auth/me')
      .set('Authorization', `Bearer ${(second.body as { key: string }).key}`)
      .expect(200);
  });

  it('should count JWT callers per user', async () => {
    const user = await factory.user(); // its sync-user and key creation used 2 of the 5
    for (let index = 0; index < 3; index += 1) {
      await testApp.http
        .get('/auth/api-keys')
        .set('Authorization', `Bearer ${user.jwt}`)
        .expect(200);
    }
    expectRateLimited(
      await testApp.http.get('/auth/api-keys').set('Authorization', `Bearer ${user.jwt}`),
    );
  });

  it('should take all three headers from the limit with the fewest requests left', async () => {
    const user = await factory.user();
    await testApp.db.query(
      `INSERT INTO rate_limit_counters (bucket, window_start, hits, expires_at)
       VALUES ($1, date_trunc('hour', now()), 5, date_trunc('hour', now()) + interval '1 hour')`,
      [`key:${user.apiKeyId}:h`],
    );
    // 4 left in the minute, 2 in the hour: the hour's limit, remaining and reset.
    const { headers, hourEnds } = await rateLimitHeadersOf(() =>
      testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200),
    );
    expect(hourEnds.map((end) => ['8', '2', end])).toContainEqual(headers);
  });

  it('should enforce the per-hour limit and not count refused requests against it', async () => {
    const user = await factory.user();
    await testApp.db.query(
      `INSERT INTO rate_limit_counters (bucket, window_start, hits, expires_at)
       VALUES ($1, date_trunc('hour', now()), 7, date_trunc('hour', now()) + interval '1 hour')`,
      [`key:${user.apiKeyId}:h`],
    );
    await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
    const limited = await testApp.http.get('/auth/me').set('Authorization', user.auth);
    expect(limited.status).toBe(429);
    expect((limited.body as { retry_after: number }).retry_after).toBeGreaterThan(0);
    const counters = await testApp.db.query<{ bucket: string; hits: number }>(
      'SELECT bucket, hits FROM rate_limit_counters WHERE bucket LIKE $1',
      [`key:${user.apiKeyId}:%`],
    );
    const hits = Object.fromEntries(
      counters.rows.map((row) => [row.bucket.slice(-1), Number(row.hits)]),
    );
    expect(hits).toEqual({ m: 1, h: 8, d: 1 });
  });

  it('should count anonymous reads of a public task per IP with the per-minute limit', async () => {
    const user = await factory.user();
    const created = await testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .send({ search_query: 'anonymous readers of this task', state: 'paused' })
      .expect(200);
    const id = (created.body as { id: string }).id;
    await testApp.db.query('UPDATE tasks SET is_public = true WHERE id = $1', [id]);
    await testApp.db.query("DELETE FROM rate_limit_counters WHERE bucket LIKE 'ip:anonymous:%'");
    for (let index = 0; index < 5; index += 1) {
      const response = await testApp.http.get(`/api/v1/tasks/${id}`).expect(200);
      expect(response.headers['x-ratelimit-limit']).toBe('5');
    }
    expectRateLimited(await testApp.http.get(`/api/v1/tasks/${id}`));
    // Signed-in callers are counted per key, not per IP.
    await testApp.http.get(`/api/v1/tasks/${id}`).set('Authorization', user.auth).expect(200);
  });

  it('should share one limit between two instances on the same database', async () => {
    const second = await startTestApp({
      databaseUrl: testApp.databaseUrl,
      jwks: testApp.jwks,
      env: { RATE_LIMIT_PER_MINUTE: '5' },
    });
    try {
      const user = await factory.user();
      const statuses: number[] = [];
      for (let index = 0; index < 6; index += 1) {
        const target = index % 2 === 0 ? testApp : second;
        statuses.push((await target.http.get('/auth/me').set('Authorization', user.auth)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await second.close();
    }
  });
});

describe('Per-user limit of model calls', () => {
  let testApp: TestApp;
  let factory: Factory;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { RATE_LIMIT_LLM_PER_HOUR: '3', RATE_LIMIT_PAGE_CHECKS_PER_HOUR: '2' },
    });
    factory = new Factory(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('should count suggest, preview and execute per user across every credential, and answer 429 past the limit', async () => {
    const user = await factory.user();
    const secondKey = await testApp.http
      .post('/auth/api-keys')
      .set('Authorization', user.auth)
      .send({ name: 'second' })
      .expect(200);
    const task = await testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .send({ search_query: 'Has the model call limit been reached?', state: 'paused' })
      .expect(200);
    const taskId = (task.body as { id: string }).id;

    await testApp.http
      .post('/api/v1/tasks/suggest')
      .set('Authorization', user.auth)
      .send({ prompt: 'Watch for the next release' })
      .expect(503); // counted: the limit guards the model, whatever the provider then answers
    await testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', `Bearer ${(secondKey.body as { key: string }).key}`)
      .send({ search_query: 'Has the model call limit been reached?' })
      .expect(503);
    await testApp.http
      .post(`/api/v1/tasks/${taskId}/execute`)
      .set('Authorization', `Bearer ${user.jwt}`)
      .expect(200);

    expectRateLimited(
      await testApp.http
        .post(`/api/v1/tasks/${taskId}/execute?force=true`)
        .set('Authorization', user.auth),
    );
    expectRateLimited(
      await testApp.http
        .post('/api/v1/tasks/preview')
        .set('Authorization', user.auth)
        .send({ search_query: 'Another preview query' }),
    );
    // Routes that do not call the model are not affected, and another user has a limit of their own.
    await testApp.http.get(`/api/v1/tasks/${taskId}`).set('Authorization', user.auth).expect(200);
    const other = await factory.user();
    await testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', other.auth)
      .send({ search_query: 'Has the model call limit been reached?' })
      .expect(503);
  });

  it('should count executes of a page-rule task in the page checks, not in the model calls', async () => {
    const user = await factory.user();
    const create = async (body: Record<string, unknown>) => {
      const { body: task } = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .send({ state: 'paused', ...body })
        .expect(200);
      return (task as { id: string }).id;
    };
    const pageTask = await create({
      search_query: 'Has the changelog page changed?',
      pages: [{ url: 'http://127.0.0.1:9/changelog' }],
      page_rule: { type: 'changed' },
    });
    const modelTask = await create({ search_query: 'Has version 2.0 been released yet?' });
    const execute = (taskId: string) =>
      testApp.http
        .post(`/api/v1/tasks/${taskId}/execute?force=true`)
        .set('Authorization', user.auth);

    await execute(pageTask).expect(200);
    await execute(pageTask).expect(200);
    const refused = await execute(pageTask);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Page check limit of 2 per hour reached' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['x-ratelimit-limit']).toBe('2');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // The model calls of the hour are all still there, and used up apart from the page checks.
    for (let call = 0; call < 3; call += 1) await execute(modelTask).expect(200);
    expectRateLimited(await execute(modelTask));
    expectDetail(await execute(pageTask), 429, 'Page check limit of 2 per hour reached');
  });

  it('should take all three headers from the model-call limit when it has the fewest requests left', async () => {
    const user = await factory.user();
    const preview = () =>
      testApp.http
        .post('/api/v1/tasks/preview')
        .set('Authorization', user.auth)
        .send({ search_query: 'Which limit do the headers describe?' });
    // 99 left in the minute, 2 of the model calls of the hour.
    const first = await rateLimitHeadersOf(() => preview().expect(503));
    expect(first.hourEnds.map((end) => ['3', '2', end])).toContainEqual(first.headers);
    await preview().expect(503);
    await preview().expect(503);
    const refused = await rateLimitHeadersOf(preview);
    expectRateLimited(refused.response);
    expect(refused.hourEnds.map((end) => ['3', '0', end])).toContainEqual(refused.headers);
  });
});
