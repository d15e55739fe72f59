import { randomUUID } from 'node:crypto';
import { expectDetail, expectRateLimited, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import type { TaskBody } from '../tasks/task-api';
import { startTestApp, type TestApp } from '../support/test-app';
import { clientIp, createPublicTask, inOneWindow } from '../sharing/sharing-fixtures';

interface PublicPage {
  tasks: TaskBody[];
  total: number;
  offset: number;
  limit: number;
}

/**
 * The app runs as if behind one reverse proxy (TRUST_PROXY=1): the client address is the last
 * X-Forwarded-For entry, so each test can be a client of its own for the per-IP limits.
 */
describe('Public task pages', () => {
  let testApp: TestApp;
  let factory: Factory;
  let owner: TestUser;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { TRUST_PROXY: '1' } });
    factory = new Factory(testApp);
    owner = await factory.user();
  });

  afterAll(async () => {
    await testApp.close();
  });

  function list(ip: string, query: Record<string, string | number> = {}) {
    return testApp.http.get('/api/v1/public/tasks').set('X-Forwarded-For', ip).query(query);
  }

  function view(ip: string, taskId: string) {
    return testApp.http.get(`/api/v1/public/tasks/id/${taskId}`).set('X-Forwarded-For', ip);
  }

  async function storedViewCount(taskId: string): Promise<number> {
    const rows = await testApp.db.query<{ view_count: number }>(
      'SELECT view_count FROM tasks WHERE id = $1',
      [taskId],
    );
    return rows.rows[0].view_count;
  }

  describe('GET /api/v1/public/tasks', () => {
    it('should list only public tasks, newest first, as {tasks, total, offset, limit} with defaults 0 and 20', async () => {
      const privateTask = await factory.task(owner, { name: 'Private one' });
      const older = await createPublicTask(testApp, owner, { body: { name: 'Older public' } });
      const newer = await createPublicTask(testApp, owner, { body: { name: 'Newer public' } });
      const response = await list(clientIp());
      expect(response.status).toBe(200);
      const page = response.body as PublicPage;
      const publicCount = await testApp.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM tasks WHERE is_public',
      );
      expect(page).toEqual({
        tasks: expect.any(Array),
        total: publicCount.rows[0].n,
        offset: 0,
        limit: 20,
      });
      const ids = page.tasks.map((task) => task.id);
      expect(ids).not.toContain(privateTask.id);
      expect(ids.slice(0, 2)).toEqual([newer.id, older.id]);
      expect(page.tasks.every((task) => task.is_public)).toBe(true);
    });

    it('should page with offset and limit', async () => {
      for (let index = 0; index < 3; index += 1) await createPublicTask(testApp, owner);
      const ip = clientIp();
      const all = (await list(ip, { limit: 100 }).expect(200)).body as PublicPage;
      const second = (await list(ip, { offset: 1, limit: 2 }).expect(200)).body as PublicPage;
      expect(second).toMatchObject({ offset: 1, limit: 2, total: all.total });
      expect(second.tasks.map((task) => task.id)).toEqual(
        all.tasks.slice(1, 3).map((task) => task.id),
      );
      const beyond = (await list(ip, { offset: all.total }).expect(200)).body as PublicPage;
      expect(beyond).toMatchObject({ tasks: [], total: all.total, offset: all.total });
    });

    it('should sort by views, then forks, when sort_by=popular', async () => {
      const [most, tieMoreForks, tieFewerForks] = await Promise.all([
        createPublicTask(testApp, owner),
        createPublicTask(testApp, owner),
        createPublicTask(testApp, owner),
      ]);
      // Far above anything else in this database, so these three lead the list.
      await testApp.db.query(
        'UPDATE tasks SET view_count = $2, subscriber_count = $3 WHERE id = $1',
        [most.id, 900_000, 0],
      );
      await testApp.db.query(
        'UPDATE tasks SET view_count = $2, subscriber_count = $3 WHERE id = $1',
        [tieMoreForks.id, 800_000, 7],
      );
      await testApp.db.query(
        'UPDATE tasks SET view_count = $2, subscriber_count = $3 WHERE id = $1',
        [tieFewerForks.id, 800_000, 2],
      );
      const page = (await list(clientIp(), { sort_by: 'popular', limit: 3 }).expect(200))
        .body as PublicPage;
      expect(page.tasks.map((task) => task.id)).toEqual([
        most.id,
        tieMoreForks.id,
        tieFewerForks.id,
      ]);
    });

    it('should answer 422 for limit above 100 or below 1, a negative offset and an unknown sort', async () => {
      const ip = clientIp();
      expectValidationError(await list(ip, { limit: 101 }), [
        { type: 'less_than_equal', loc: ['query', 'limit'] },
      ]);
      expectValidationError(await list(ip, { limit: 0 }), [
        { type: 'greater_than_equal', loc: ['query', 'limit'] },
      ]);
      expectValidationError(await list(ip, { offset: -1 }), [
        { type: 'greater_than_equal', loc: ['query', 'offset'] },
      ]);
      expectValidationError(await list(ip, { sort_by: 'oldest' }), [
        { type: 'enum', loc: ['query', 'sort_by'], msg: "Input should be 'recent' or 'popular'" },
      ]);
    });

    it('should need no credentials and ignore any that are sent', async () => {
      await list(clientIp()).expect(200);
      await list(clientIp()).set('Authorization', 'Bearer sk_not_a_real_key').expect(200);
    });
  });

  describe('GET /api/v1/public/tasks/id/{id}', () => {
    it('should answer the public task with its last execution', async () => {
      const task = await createPublicTask(testApp, owner, { body: { name: 'Shown publicly' } });
      const executionId = await factory.execution(task, {
        conditionMet: true,
        answer: 'It shipped on Monday.',
        reasoning: 'The vendor blog says so.',
        last: true,
      });
      const response = await view(clientIp(), task.id);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: task.id,
        name: 'Shown publicly',
        is_public: true,
        last_execution_id: executionId,
        last_execution: {
          id: executionId,
          answer: 'It shipped on Monday.',
          condition_met: true,
          error_message: null,
        },
      });
    });

    it('should answer 404 "Task not found" for a private task and an unknown id, 422 for a non-UUID', async () => {
      const privateTask = await factory.task(owner);
      const ip = clientIp();
      expectDetail(await view(ip, privateTask.id), 404, 'Task not found');
      expectDetail(await view(ip, randomUUID()), 404, 'Task not found');
      expectValidationError(await view(ip, 'not-a-uuid'), [
        { type: 'uuid_parsing', loc: ['path', 'id'] },
      ]);
    });

    it('should stop answering once the owner makes the task private again', async () => {
      const task = await createPublicTask(testApp, owner);
      const ip = clientIp();
      await view(ip, task.id).expect(200);
      await testApp.http
        .patch(`/api/v1/tasks/${task.id}/visibility`)
        .set('Authorization', owner.auth)
        .send({ is_public: false })
        .expect(200);
      expectDetail(await view(ip, task.id), 404, 'Task not found');
    });

    it('should count each view and show the same count on the public page, the lists and to the owner', async () => {
      const task = await createPublicTask(testApp, owner);
      const counts: number[] = [];
      for (let index = 0; index < 3; index += 1)
        counts.push(((await view(clientIp(), task.id).expect(200)).body as TaskBody).view_count);
      expect(counts).toEqual([1, 2, 3]);
      expect(await storedViewCount(task.id)).toBe(3);
      const listed = (await list(clientIp(), { limit: 100 }).expect(200)).body as PublicPage;
      expect(listed.tasks.find((candidate) => candidate.id === task.id)?.view_count).toBe(3);
      const own = await testApp.http
        .get(`/api/v1/tasks/${task.id}`)
        .set('Authorization', owner.auth)
        .expect(200);
      expect((own.body as TaskBody).view_count).toBe(3);
      const ownList = await testApp.http
        .get('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .expect(200);
      expect(
        (ownList.body as TaskBody[]).find((candidate) => candidate.id === task.id)?.view_count,
      ).toBe(3);
    });

    it('should count a client once an hour however often it views the task', async () => {
      const task = await createPublicTask(testApp, owner);
      const ip = clientIp();
      const counts: number[] = [];
      for (let index = 0; index < 4; index += 1)
        counts.push(((await view(ip, task.id).expect(200)).body as TaskBody).view_count);
      expect(counts).toEqual([1, 1, 1, 1]);
      // Another task viewed by the same client counts for that task.
      const other = await createPublicTask(testApp, owner);
      expect(((await view(ip, other.id).expect(200)).body as TaskBody).view_count).toBe(1);
      // The hour after, the client counts again.
      await testApp.db.query(
        "UPDATE task_view_marks SET hour = hour - interval '1 hour' WHERE task_id = $1",
        [task.id],
      );
      expect(((await view(ip, task.id).expect(200)).body as TaskBody).view_count).toBe(2);
      expect(await storedViewCount(task.id)).toBe(2);
    });

    it('should count the addresses of one IPv6 /64 as one client, and another /64 apart', async () => {
      const task = await createPublicTask(testApp, owner);
      const prefix = `2001:db8:${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;
      for (const address of [
        `${prefix}::1`,
        `${prefix}:abcd:0:0:1`,
        `${prefix}:ffff:ffff:ffff:ffff`,
      ])
        await view(address, task.id).expect(200);
      expect(await storedViewCount(task.id)).toBe(1);
      await view(`2001:db8:ffff:${randomUUID().slice(0, 4)}::1`, task.id).expect(200);
      expect(await storedViewCount(task.id)).toBe(2);
    });

    it('should count concurrent views of one client once', async () => {
      const task = await createPublicTask(testApp, owner);
      const ip = clientIp();
      await Promise.all(Array.from({ length: 8 }, () => view(ip, task.id).expect(200)));
      expect(await storedViewCount(task.id)).toBe(1);
    });

    it('should not count views of private or unknown tasks', async () => {
      const privateTask = await factory.task(owner);
      await view(clientIp(), privateTask.id).expect(404);
      expect(await storedViewCount(privateTask.id)).toBe(0);
    });

    it('should show views counted by another instance at once', async () => {
      const task = await createPublicTask(testApp, owner);
      const second = await startTestApp({
        databaseUrl: testApp.databaseUrl,
        jwks: testApp.jwks,
        env: { TRUST_PROXY: '1' },
      });
      try {
        for (let index = 0; index < 4; index += 1) {
          await second.http
            .get(`/api/v1/public/tasks/id/${task.id}`)
            .set('X-Forwarded-For', clientIp())
            .expect(200);
        }
        const own = await testApp.http
          .get(`/api/v1/tasks/${task.id}`)
          .set('Authorization', owner.auth)
          .expect(200);
        expect((own.body as TaskBody).view_count).toBe(4);
      } finally {
        await second.close();
      }
    });

    it('should add up concurrent views without losing any', async () => {
      const task = await createPublicTask(testApp, owner);
      await Promise.all(Array.from({ length: 15 }, () => view(clientIp(), task.id).expect(200)));
      expect(await storedViewCount(task.id)).toBe(15);
    });
  });

  describe('GET /api/v1/tasks/{id} without credentials', () => {
    it('should answer a public task and 404 for a private one', async () => {
      const publicTask = await createPublicTask(testApp, owner);
      const privateTask = await factory.task(owner);
      const response = await testApp.http.get(`/api/v1/tasks/${publicTask.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: publicTask.id, is_public: true });
      expectDetail(
        await testApp.http.get(`/api/v1/tasks/${privateTask.id}`),
        404,
        'Task not found',
      );
      expectDetail(await testApp.http.get(`/api/v1/tasks/${randomUUID()}`), 404, 'Task not found');
    });

    it('should answer 401 when credentials are sent but invalid', async () => {
      const publicTask = await createPublicTask(testApp, owner);
      expectDetail(
        await testApp.http
          .get(`/api/v1/tasks/${publicTask.id}`)
          .set('Authorization', `Bearer sk_${'A'.repeat(32)}`),
        401,
        'Invalid API key',
      );
    });
  });

  describe('per-IP rate limits', () => {
    it('should answer the 11th listing request of a minute with 429, body and headers', async () => {
      await inOneWindow(testApp, async () => {
        const ip = clientIp();
        for (let index = 0; index < 10; index += 1) {
          const response = await list(ip).expect(200);
          expect(response.headers['x-ratelimit-limit']).toBe('10');
          expect(response.headers['x-ratelimit-remaining']).toBe(String(9 - index));
        }
        const limited = await list(ip);
        expectRateLimited(limited);
        expect(limited.headers['x-ratelimit-limit']).toBe('10');
        expect(limited.headers['x-ratelimit-remaining']).toBe('0');
        expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
        // Another client is not affected.
        await list(clientIp()).expect(200);
      });
    });

    it('should count each endpoint separately for one client', async () => {
      await inOneWindow(testApp, async () => {
        const ip = clientIp();
        const task = await createPublicTask(testApp, owner);
        for (let index = 0; index < 10; index += 1) await list(ip).expect(200);
        expect((await list(ip)).status).toBe(429);

        const byId = await view(ip, task.id);
        expect(byId.status).toBe(200);
        expect(byId.headers['x-ratelimit-limit']).toBe('20');
        const feed = await testApp.http.get(`/tasks/${task.id}/rss`).set('X-Forwarded-For', ip);
        expect(feed.status).toBe(200);
        expect(feed.headers['x-ratelimit-limit']).toBe('10');
        const waitlist = await testApp.http
          .post('/public/waitlist')
          .set('X-Forwarded-For', ip)
          .send({ email: `${randomUUID()}@example.com` });
        expect(waitlist.status).toBe(200);
        expect(waitlist.headers['x-ratelimit-limit']).toBe('5');
      });
    });

    it('should allow 20 task views a minute per client', async () => {
      await inOneWindow(testApp, async () => {
        const ip = clientIp();
        const task = await createPublicTask(testApp, owner);
        for (let index = 0; index < 20; index += 1) await view(ip, task.id).expect(200);
        expectRateLimited(await view(ip, task.id));
      });
    });

    it('should take the address the trusted proxy saw, not one the client put in X-Forwarded-For', async () => {
      await inOneWindow(testApp, async () => {
        const ip = clientIp();
        for (let index = 0; index < 10; index += 1) {
          await list(`${clientIp()}, ${ip}`).expect(200);
        }
        expectRateLimited(await list(`${clientIp()}, ${ip}`));
      });
    });
  });
});

describe('Public task pages without TRUST_PROXY', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('should count per socket address and ignore X-Forwarded-For', async () => {
    await inOneWindow(testApp, async () => {
      // Every request here is the one client 127.0.0.1: each run starts from no count of it.
      await testApp.db.query(
        "DELETE FROM rate_limit_counters WHERE bucket LIKE 'ip:public-task-list:%'",
      );
      for (let index = 0; index < 10; index += 1) {
        await testApp.http
          .get('/api/v1/public/tasks')
          .set('X-Forwarded-For', clientIp())
          .expect(200);
      }
      expectRateLimited(
        await testApp.http.get('/api/v1/public/tasks').set('X-Forwarded-For', clientIp()),
      );
      const counters = await testApp.db.query<{ bucket: string }>(
        "SELECT bucket FROM rate_limit_counters WHERE bucket LIKE 'ip:public-task-list:%'",
      );
      expect(counters.rows.map((row) => row.bucket)).toEqual([
        expect.stringMatching(/^ip:public-task-list:(::ffff:)?127\.0\.0\.1:m$/),
      ]);
    });
  });
});
