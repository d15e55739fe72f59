import { expectDetail, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';
import { ROOMY_RATE_LIMITS, uniqueQuery, type TaskBody } from './task-api';

/** `MAX_TASKS_PER_USER` (docs/api.md, "Tasks"): every task counts, whatever its state. */
describe('Tasks: the per-user task limit and the paged list', () => {
  let testApp: TestApp;
  let factory: Factory;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { ...ROOMY_RATE_LIMITS, MAX_TASKS_PER_USER: '3', MAX_ACTIVE_TASKS_PER_USER: '0' },
    });
    factory = new Factory(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const LIMIT_REACHED = 'Task limit reached (3)';

  function create(user: TestUser, state = 'paused') {
    return testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .send({ search_query: uniqueQuery('limit'), state });
  }

  function fork(user: TestUser, taskId: string) {
    return testApp.http
      .post(`/api/v1/tasks/${taskId}/fork`)
      .set('Authorization', user.auth)
      .send({ name: uniqueQuery('fork') });
  }

  it('should answer 409 when a create or a fork would pass MAX_TASKS_PER_USER, whatever the states', async () => {
    const user = await factory.user();
    const first = (await create(user, 'paused').expect(200)).body as TaskBody;
    await create(user, 'active').expect(200);
    await fork(user, first.id).expect(200);
    expectDetail(await create(user, 'paused'), 409, LIMIT_REACHED);
    expectDetail(await create(user, 'active'), 409, LIMIT_REACHED);
    expectDetail(await fork(user, first.id), 409, LIMIT_REACHED);
    const count = await testApp.db.query('SELECT 1 FROM tasks WHERE user_id = $1', [user.id]);
    expect(count.rowCount).toBe(3);

    // A deleted task frees its place; another user has a limit of their own.
    await testApp.http
      .delete(`/api/v1/tasks/${first.id}`)
      .set('Authorization', user.auth)
      .expect(204);
    await create(user, 'paused').expect(200);
    await create(await factory.user(), 'paused').expect(200);
  });

  it('should let exactly the limit through when creates and forks race each other', async () => {
    const user = await factory.user();
    const source = (await create(user).expect(200)).body as TaskBody;
    const statuses = (
      await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          index % 2 === 0 ? create(user) : fork(user, source.id),
        ),
      )
    ).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 409)).toHaveLength(6);
  });

  it('should page GET /api/v1/tasks with limit and offset, newest first, as a bare array', async () => {
    const user = await factory.user();
    const made: string[] = [];
    for (let index = 0; index < 3; index += 1)
      made.push(((await create(user).expect(200)).body as TaskBody).id);
    const newestFirst = [...made].reverse();
    const list = async (query: string) =>
      (
        (
          await testApp.http
            .get(`/api/v1/tasks${query}`)
            .set('Authorization', user.auth)
            .expect(200)
        ).body as TaskBody[]
      ).map((task) => task.id);
    expect(await list('')).toEqual(newestFirst);
    expect(await list('?limit=2')).toEqual(newestFirst.slice(0, 2));
    expect(await list('?limit=2&offset=2')).toEqual(newestFirst.slice(2));
    expect(await list('?offset=1')).toEqual(newestFirst.slice(1));
    expect(await list('?state=paused&limit=1&offset=1')).toEqual([newestFirst[1]]);

    for (const [query, loc] of [
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?limit=abc', 'limit'],
      ['?offset=-1', 'offset'],
      ['?offset=1000001', 'offset'],
    ]) {
      const response = await testApp.http
        .get(`/api/v1/tasks${query}`)
        .set('Authorization', user.auth);
      expectValidationError(response, [{ type: expect.any(String), loc: ['query', loc] }]);
    }
    await testApp.http.get('/api/v1/tasks?limit=1000').set('Authorization', user.auth).expect(200);
  });
});

describe('Tasks: the default task limit', () => {
  it('should cap every user at 1000 tasks unless MAX_TASKS_PER_USER says otherwise', async () => {
    const testApp = await startTestApp({ env: ROOMY_RATE_LIMITS });
    try {
      expect(testApp.config.tasks.maxTasksPerUser).toBe(1000);
      const user = await new Factory(testApp).user();
      await testApp.db.query(
        `INSERT INTO tasks (user_id, name, search_query, condition_description, state, notify_behavior,
           notifications, state_changed_at)
         SELECT $1, 'bulk ' || n, 'bulk task query', 'bulk task query', 'paused', 'once', '[]', now()
         FROM generate_series(1, 1000) AS n`,
        [user.id],
      );
      expectDetail(
        await testApp.http
          .post('/api/v1/tasks')
          .set('Authorization', user.auth)
          .send({ search_query: 'one task past the default limit', state: 'paused' }),
        409,
        'Task limit reached (1000)',
      );
    } finally {
      await testApp.close();
    }
  });
});
