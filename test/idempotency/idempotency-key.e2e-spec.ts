import type { Response } from 'supertest';
import { IdempotencyKeySweeper } from '../../src/idempotency/idempotency-key.sweeper';
import { expectDetail, expectServerError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { ROOMY_RATE_LIMITS, uniqueQuery } from '../tasks/task-api';

const DIFFERENT = 'Idempotency-Key was used with a different request';
const IN_PROGRESS = 'A request with this Idempotency-Key is in progress';
const TOO_MANY_KEYS = 'Too many Idempotency-Keys in use';

describe('Idempotency-Key on create, execute and fork', () => {
  let testApp: TestApp;
  let factory: Factory;
  let user: TestUser;
  let keyNumber = 0;

  const nextKey = () => `key-${Date.now()}-${(keyNumber += 1)}`;
  const create = (app: TestApp, caller: TestUser, key: string, body: Record<string, unknown>) =>
    app.http
      .post('/api/v1/tasks')
      .set('Authorization', caller.auth)
      .set('Idempotency-Key', key)
      .send(body);
  const keptBody = async (caller: TestUser, key: string): Promise<string | null> => {
    const { rows } = await testApp.db.query<{ response_body: string | null }>(
      'SELECT response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [caller.id, key],
    );
    return rows[0]?.response_body ?? null;
  };
  const keyExists = async (caller: TestUser, key: string): Promise<boolean> => {
    const { rows } = await testApp.db.query(
      'SELECT 1 FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [caller.id, key],
    );
    return rows.length > 0;
  };
  const taskCount = async (caller: TestUser): Promise<number> => {
    const { rows } = await testApp.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM tasks WHERE user_id = $1',
      [caller.id],
    );
    return rows[0].count;
  };

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { ...ROOMY_RATE_LIMITS, MAX_ACTIVE_TASKS_PER_USER: '1', USER_MONTHLY_BUDGET_USD: '5' },
    });
    factory = new Factory(testApp);
    user = await factory.user();
  });

  afterAll(() => testApp.close());

  it('should answer the first answer again and create nothing more when the request is repeated', async () => {
    const key = nextKey();
    const body = { search_query: uniqueQuery('idempotent create'), state: 'paused' };
    const first = await create(testApp, user, key, body);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await taskCount(user);
    // JSON-equal: the same fields in another order.
    const again = await create(testApp, user, key, {
      state: 'paused',
      search_query: body.search_query,
    });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await taskCount(user)).toBe(before);
  });

  it('should answer 422 when the key comes with another request', async () => {
    const key = nextKey();
    await create(testApp, user, key, { search_query: uniqueQuery('one'), state: 'paused' }).expect(
      200,
    );
    const other = await create(testApp, user, key, {
      search_query: uniqueQuery('two'),
      state: 'paused',
    });
    expectDetail(other, 422, DIFFERENT);
    const otherRoute = await testApp.http
      .post(`/api/v1/tasks/${(await factory.task(user)).id}/fork`)
      .set('Authorization', user.auth)
      .set('Idempotency-Key', key)
      .send({});
    expectDetail(otherRoute, 422, DIFFERENT);
  });

  it('should answer 409 while the first request is in progress', async () => {
    const key = nextKey();
    const body = { search_query: uniqueQuery('slow create'), state: 'paused' };
    // Hold the user's row (as a create does): the first create waits on it inside its
    // transaction, after its claim (whose foreign key check only shares the row).
    const blocker = await testApp.db.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [user.id]);
      const first = create(testApp, user, key, body).then((response) => response);
      await waitForClaim(testApp, user, key);
      const second = await create(testApp, user, key, body);
      expectDetail(second, 409, IN_PROGRESS);
      await blocker.query('COMMIT');
      expect((await first).status).toBe(200);
    } finally {
      blocker.release();
    }
    const replay = await create(testApp, user, key, body);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('should keep keys per user', async () => {
    const other = await factory.user();
    const key = nextKey();
    const mine = await create(testApp, user, key, {
      search_query: uniqueQuery('mine'),
      state: 'paused',
    });
    const theirs = await create(testApp, other, key, {
      search_query: uniqueQuery('theirs'),
      state: 'paused',
    });
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('should forget a key after 24 hours and its sweep remove it', async () => {
    const key = nextKey();
    const body = { search_query: uniqueQuery('expiring'), state: 'paused' };
    const first = await create(testApp, user, key, body);
    await testApp.db.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE user_id = $1 AND key = $2`,
      [user.id, key],
    );
    const later = await create(testApp, user, key, body);
    expect(later.status).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);

    const old = nextKey();
    await create(testApp, user, old, { search_query: uniqueQuery('old'), state: 'paused' });
    await testApp.db.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE user_id = $1 AND key = $2`,
      [user.id, old],
    );
    await testApp.app.get(IdempotencyKeySweeper).removeExpired();
    const { rows } = await testApp.db.query('SELECT key FROM idempotency_keys WHERE user_id = $1', [
      user.id,
    ]);
    expect(rows.map((row: { key: string }) => row.key)).toEqual(expect.arrayContaining([key]));
    expect(rows.map((row: { key: string }) => row.key)).not.toContain(old);
  });

  it('should pass over an expired key that a request holds when it sweeps', async () => {
    const expire = (key: string) =>
      testApp.db.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE user_id = $1 AND key = $2`,
        [user.id, key],
      );
    const [held, free] = [nextKey(), nextKey()];
    for (const key of [held, free]) {
      await create(testApp, user, key, { search_query: uniqueQuery('held'), state: 'paused' });
      await expire(key);
    }
    const keysLeft = async () =>
      (
        await testApp.db.query<{ key: string }>(
          'SELECT key FROM idempotency_keys WHERE user_id = $1 AND key = ANY($2)',
          [user.id, [held, free]],
        )
      ).rows.map((row) => row.key);
    const client = await testApp.db.connect();
    try {
      // A request taking the key over holds its row: the sweep must not wait for it.
      await client.query('BEGIN');
      await client.query(
        'SELECT 1 FROM idempotency_keys WHERE user_id = $1 AND key = $2 FOR UPDATE',
        [user.id, held],
      );
      await testApp.app.get(IdempotencyKeySweeper).removeExpired();
      expect(await keysLeft()).toEqual([held]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await testApp.app.get(IdempotencyKeySweeper).removeExpired();
    expect(await keysLeft()).toEqual([]);
  });

  it('should keep a 4xx answer and let the key go after a 429', async () => {
    const key = nextKey();
    const invalid = await create(testApp, user, key, { search_query: 'xyzzy' });
    expect(invalid.status).toBe(422);
    const replayed = await create(testApp, user, key, { search_query: 'xyzzy' });
    expect(replayed.status).toBe(422);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    // Kept without echoing the request: the issues lose their `input`, nothing else.
    const issues = (invalid.body as { detail: Array<Record<string, unknown>> }).detail;
    expect(issues[0].input).toBe('xyzzy');
    expect(replayed.body).toEqual({ detail: issues.map(({ input: _input, ...rest }) => rest) });
    expect(await keptBody(user, key)).not.toContain('xyzzy');

    // A 409 of the active cap is an answer like any other: kept.
    const capped = await factory.user();
    await create(testApp, capped, nextKey(), { search_query: uniqueQuery('active one') }).expect(
      200,
    );
    const capKey = nextKey();
    const refused = await create(testApp, capped, capKey, {
      search_query: uniqueQuery('active two'),
    });
    expectDetail(refused, 409, 'Active task limit reached (1)');

    // A 429 from the route (the monthly budget): the key is let go, and the same request runs
    // once the budget allows it.
    const spender = await factory.user();
    const task = await factory.task(spender);
    const spendKey = nextKey();
    await testApp.db.query(
      `INSERT INTO usage_events (user_id, kind, provider, model, input_tokens, output_tokens, search_calls, cost_usd)
       VALUES ($1, 'suggest', 'gemini', 'model', 0, 0, 0, 10)`,
      [spender.id],
    );
    const execute = () =>
      testApp.http
        .post(`/api/v1/tasks/${task.id}/execute`)
        .set('Authorization', spender.auth)
        .set('Idempotency-Key', spendKey)
        .send({});
    expectDetail(await execute(), 429, 'Monthly budget of 5 USD reached');
    const { rows } = await testApp.db.query(
      'SELECT 1 FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [spender.id, spendKey],
    );
    expect(rows).toHaveLength(0);
    await testApp.db.query('DELETE FROM usage_events WHERE user_id = $1', [spender.id]);
    const ran = await execute();
    expect(ran.status).toBe(200);
    expect(ran.headers['idempotent-replayed']).toBeUndefined();
  });

  it('should not keep an answer over 64 kB and let its key go', async () => {
    const headers = Object.fromEntries(
      Array.from({ length: 18 }, (_, index) => [`X-Pad-${index}`, 'p'.repeat(4000)]),
    );
    const body = {
      search_query: uniqueQuery('large answer'),
      state: 'paused',
      notifications: [{ type: 'webhook', url: 'http://127.0.0.1:9/hook', headers }],
    };
    const key = nextKey();
    const first = await create(testApp, user, key, body);
    expect(first.status).toBe(200);
    expect(Buffer.byteLength(first.text)).toBeGreaterThan(64 * 1024);
    expect(await keyExists(user, key)).toBe(false);
    const again = await create(testApp, user, key, body);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.id).not.toBe(first.body.id);
  });

  it('should keep no credential: a replay shows each null, GET still shows them', async () => {
    const credentials = {
      hookHeader: `hook-${uniqueQuery('h').replace(/\W/g, '')}`,
      ntfyToken: `tk_${uniqueQuery('n').replace(/\W/g, '')}`,
      botToken: `123456789:${uniqueQuery('b').replace(/\W/g, '')}`,
      cookie: `session-${uniqueQuery('c').replace(/\W/g, '')}`,
    };
    const body = {
      search_query: uniqueQuery('signed'),
      state: 'paused',
      notifications: [
        {
          type: 'webhook',
          url: 'http://127.0.0.1:9/signed',
          headers: { 'X-Hook-Key': credentials.hookHeader },
        },
        { type: 'ntfy', url: 'http://127.0.0.1:9/topic', token: credentials.ntfyToken },
        { type: 'telegram', chat_id: '-1001234567890', bot_token: credentials.botToken },
        { type: 'slack', url: 'http://127.0.0.1:9/services/T0/B0/x' },
      ],
      pages: [
        { url: 'http://127.0.0.1:9/page', headers: { Cookie: credentials.cookie } },
        { url: 'http://127.0.0.1:9/other' },
      ],
    };
    const key = nextKey();
    const first = await create(testApp, user, key, body);
    expect(first.status).toBe(200);
    const [webhook, ntfy, telegram, slack] = first.body.notifications as Array<
      Record<string, unknown>
    >;
    expect(webhook.secret).toMatch(/^whsec_/);
    const replayed = await create(testApp, user, key, body);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual({
      ...first.body,
      notifications: [
        { ...webhook, secret: null, headers: null },
        { ...ntfy, token: null },
        { ...telegram, bot_token: null },
        slack,
      ],
      pages: [{ url: body.pages[0].url, headers: null }, body.pages[1]],
    });
    const kept = await keptBody(user, key);
    expect(kept).not.toContain('whsec_');
    for (const credential of Object.values(credentials)) expect(kept).not.toContain(credential);
    const shown = await testApp.http
      .get(`/api/v1/tasks/${first.body.id}`)
      .set('Authorization', user.auth);
    expect(shown.body).toMatchObject({
      notifications: first.body.notifications as unknown,
      pages: body.pages,
    });

    // The owner's fork gets a secret of its own: shown once, not kept either.
    const forkKey = nextKey();
    const fork = () =>
      testApp.http
        .post(`/api/v1/tasks/${first.body.id}/fork`)
        .set('Authorization', user.auth)
        .set('Idempotency-Key', forkKey)
        .send({ name: 'Signed copy' });
    const forked = await fork();
    expect(forked.body.notifications[0].secret).toMatch(/^whsec_/);
    const forkedAgain = await fork();
    expect(forkedAgain.headers['idempotent-replayed']).toBe('true');
    expect(forkedAgain.body.id).toBe(forked.body.id);
    expect(forkedAgain.body.notifications[0]).toMatchObject({ secret: null, headers: null });
    const keptFork = await keptBody(user, forkKey);
    expect(keptFork).not.toContain('whsec_');
    for (const credential of Object.values(credentials)) expect(keptFork).not.toContain(credential);
  });

  it('should answer 429 past 10,000 live keys of one user, and still replay a kept one', async () => {
    const holder = await factory.user();
    await fillKeys(testApp, holder, 9_999, 'filler');
    const last = nextKey();
    const body = { search_query: uniqueQuery('last key'), state: 'paused' };
    expect((await create(testApp, holder, last, body)).status).toBe(200);
    const refusedKey = nextKey();
    const refused = await create(testApp, holder, refusedKey, {
      search_query: uniqueQuery('one key too many'),
      state: 'paused',
    });
    expectDetail(refused, 429, TOO_MANY_KEYS);
    expect(await keyExists(holder, refusedKey)).toBe(false);
    const replayed = await create(testApp, holder, last, body);
    expect(replayed.status).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');

    // An expired key is no longer live: its place is free again.
    await testApp.db.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'
       WHERE user_id = $1 AND key = 'filler-1'`,
      [holder.id],
    );
    expect(
      (
        await create(testApp, holder, refusedKey, {
          search_query: uniqueQuery('freed'),
          state: 'paused',
        })
      ).status,
    ).toBe(200);
  });

  it('should never let concurrent new keys pass the cap of 10,000', async () => {
    const holder = await factory.user();
    await fillKeys(testApp, holder, 9_995, 'filler');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        create(testApp, holder, nextKey(), {
          search_query: uniqueQuery(`racing key ${index}`),
          state: 'paused',
        }),
      ),
    );
    for (const answer of answers) expect([200, 429]).toContain(answer.status);
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(5);
    const { rows } = await testApp.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM idempotency_keys WHERE user_id = $1',
      [holder.id],
    );
    expect(rows[0].count).toBeLessThanOrEqual(10_000);
  });

  it('should not do the work when its answer cannot be kept with it, and do it once on retry', async () => {
    const runner = await factory.user();
    const source = await factory.task(runner);
    const executionCount = async () => {
      const { rows } = await testApp.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM executions WHERE task_id = $1',
        [source.id],
      );
      return rows[0].count;
    };
    const created = { search_query: uniqueQuery('kept with its work'), run_immediately: true };
    const routes = [
      {
        send: (key: string) => create(testApp, runner, key, created),
        done: () => taskCount(runner),
      },
      {
        send: (key: string) =>
          testApp.http
            .post(`/api/v1/tasks/${source.id}/fork`)
            .set('Authorization', runner.auth)
            .set('Idempotency-Key', key)
            .send({ name: `Kept copy ${key}` }),
        done: () => taskCount(runner),
      },
      {
        send: (key: string) =>
          testApp.http
            .post(`/api/v1/tasks/${source.id}/execute`)
            .set('Authorization', runner.auth)
            .set('Idempotency-Key', key)
            .send({ force: true }),
        done: executionCount,
      },
    ];
    for (const route of routes) {
      const key = nextKey();
      const before = await route.done();
      const failed = await withAnswersRefused(testApp, () => route.send(key));
      expectServerError(failed, /./);
      // The work rolled back with its answer, and the key is free again.
      expect(await route.done()).toBe(before);
      expect(await keyExists(runner, key)).toBe(false);
      const done = await route.send(key);
      expect(done.status).toBe(200);
      const replayed = await route.send(key);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body.id).toBe(done.body.id);
      expect(await route.done()).toBe(before + 1);
    }
  });

  it('should create one task when ten requests race with one key', async () => {
    const racer = await factory.user();
    const key = nextKey();
    const body = { search_query: uniqueQuery('ten at once'), state: 'paused' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => create(testApp, racer, key, body)),
    );
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    const ids = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => (answer.body as { id: string }).id);
    expect(new Set(ids).size).toBe(1);
    expect(await taskCount(racer)).toBe(1);
  });

  it('should answer 400 for a key that is empty, too long or not visible ASCII', async () => {
    for (const key of ['', 'x'.repeat(256), 'with space', 'naïve']) {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .set('Idempotency-Key', key)
        .send({ search_query: uniqueQuery('bad key'), state: 'paused' });
      expectDetail(response, 400, 'Invalid Idempotency-Key');
    }
    const longest = await create(testApp, user, 'k'.repeat(255), {
      search_query: uniqueQuery('long key'),
      state: 'paused',
    });
    expect(longest.status).toBe(200);
  });

  it('should run the same execute and fork once when repeated', async () => {
    const task = await factory.task(user, { is_public: false });
    const execute = (key: string) =>
      testApp.http
        .post(`/api/v1/tasks/${task.id}/execute`)
        .set('Authorization', user.auth)
        .set('Idempotency-Key', key)
        .send({});
    const runKey = nextKey();
    const first = await execute(runKey);
    expect(first.status).toBe(200);
    const again = await execute(runKey);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const { rows } = await testApp.db.query('SELECT id FROM executions WHERE task_id = $1', [
      task.id,
    ]);
    expect(rows).toHaveLength(1);

    const fork = (key: string) =>
      testApp.http
        .post(`/api/v1/tasks/${task.id}/fork`)
        .set('Authorization', user.auth)
        .set('Idempotency-Key', key)
        .send({ name: 'A copy' });
    const forkKey = nextKey();
    const forked = await fork(forkKey);
    const forkedAgain = await fork(forkKey);
    expect(forked.status).toBe(200);
    expect(forkedAgain.body.id).toBe(forked.body.id);
    expect(forkedAgain.headers['idempotent-replayed']).toBe('true');
  });

  it('should do the work once when two instances race with the same key', async () => {
    const second = await startTestApp({
      databaseUrl: testApp.databaseUrl,
      jwks: testApp.jwks,
      env: { ...ROOMY_RATE_LIMITS, MAX_ACTIVE_TASKS_PER_USER: '1' },
    });
    try {
      for (let round = 0; round < 5; round += 1) {
        const key = nextKey();
        const body = { search_query: uniqueQuery('raced'), state: 'paused' };
        const before = await taskCount(user);
        const answers: Response[] = await Promise.all([
          create(testApp, user, key, body),
          create(second, user, key, body),
        ]);
        const statuses = answers.map((answer) => answer.status).sort();
        // One did the work; the other saw it in progress or answered it again.
        expect(statuses[0]).toBe(200);
        expect([200, 409]).toContain(statuses[1]);
        expect(await taskCount(user)).toBe(before + 1);
        const ids = answers
          .filter((answer) => answer.status === 200)
          .map((answer) => (answer.body as { id: string }).id);
        expect(new Set(ids).size).toBe(1);
      }
    } finally {
      await second.close();
    }
  });
});

/** Gives `user` `count` live keys (`<prefix>-1`, ...), each with a kept answer. */
async function fillKeys(testApp: TestApp, user: TestUser, count: number, prefix: string) {
  await testApp.db.query(
    `INSERT INTO idempotency_keys (user_id, key, claim, fingerprint, response_status, response_body, created_at)
     SELECT $1, $2 || '-' || n, gen_random_uuid(), repeat('0', 64), 200, '{}', now()
     FROM generate_series(1, $3) AS n`,
    [user.id, prefix, count],
  );
}

/**
 * Runs `work` while no key can have its answer kept: a real database failure (a trigger on
 * idempotency_keys), removed afterwards whatever happens.
 */
async function withAnswersRefused<T>(testApp: TestApp, work: () => Promise<T>): Promise<T> {
  await testApp.db.query(`
    CREATE OR REPLACE FUNCTION test_refuse_answer() RETURNS trigger AS $$
    BEGIN
      IF NEW.response_status IS NOT NULL THEN
        RAISE EXCEPTION 'answers cannot be kept';
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await testApp.db.query(
    `CREATE TRIGGER test_refuse_answer BEFORE UPDATE ON idempotency_keys
     FOR EACH ROW EXECUTE FUNCTION test_refuse_answer()`,
  );
  try {
    return await work();
  } finally {
    await testApp.db.query('DROP TRIGGER IF EXISTS test_refuse_answer ON idempotency_keys');
    await testApp.db.query('DROP FUNCTION IF EXISTS test_refuse_answer()');
  }
}

async function waitForClaim(testApp: TestApp, user: TestUser, key: string): Promise<void> {
  await waitFor(
    async () => {
      const { rows } = await testApp.db.query(
        'SELECT 1 FROM idempotency_keys WHERE user_id = $1 AND key = $2',
        [user.id, key],
      );
      return rows.length > 0;
    },
    { what: 'the key to be claimed', intervalMs: 20 },
  );
}
