import { randomUUID } from 'node:crypto';
import { expectDetail, expectServerError, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import type { TaskBody } from '../tasks/task-api';
import { startTestApp, type TestApp } from '../support/test-app';
import { withQueueFailure } from '../support/queue-failure';
import { setUsername } from '../sharing/sharing-fixtures';

interface Stats {
  users: { total: number; active: number };
  tasks: { total: number; active: number; paused: number; completed: number };
  executions_24h: { total: number; success: number; failed: number };
  notifications_24h: { total: number; failed: number };
}

/**
 * Workers are off in this file: check jobs stay queued exactly as scheduled, so the scheduler
 * listing and the deactivation can be asserted against the real queue table.
 */
describe('Administration', () => {
  let testApp: TestApp;
  let factory: Factory;
  let admin: TestUser;
  let plain: TestUser;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { WORKER_ENABLED: 'false' } });
    factory = new Factory(testApp);
    admin = await factory.user({ admin: true });
    plain = await factory.user();
  });

  afterAll(async () => {
    await testApp.close();
  });

  function asAdmin(method: 'get' | 'patch', path: string, user: TestUser = admin) {
    return testApp.http[method](path).set('Authorization', user.auth);
  }

  async function stats(): Promise<Stats> {
    return (await asAdmin('get', '/admin/stats').expect(200)).body as Stats;
  }

  async function activeTask(user: TestUser, body: Record<string, unknown> = {}): Promise<TaskBody> {
    return factory.task(user, { state: 'active', ...body });
  }

  async function checkJobId(taskId: string): Promise<string | null> {
    const rows = await testApp.db.query<{ check_job_id: string | null }>(
      'SELECT check_job_id FROM tasks WHERE id = $1',
      [taskId],
    );
    return rows.rows[0].check_job_id;
  }

  async function queuedJobs(jobIds: string[]): Promise<number> {
    const rows = await testApp.db.query(
      "SELECT id FROM pgboss.job WHERE name = 'task-check' AND id = ANY($1::uuid[]) AND state IN ('created', 'retry', 'active')",
      [jobIds],
    );
    return rows.rowCount ?? 0;
  }

  describe('access', () => {
    const listRoutes = [
      '/admin/stats',
      '/admin/queries',
      '/admin/executions',
      '/admin/scheduler/jobs',
      '/admin/errors',
      '/admin/users',
    ];

    it('should answer every admin route with 401 without credentials, 403 to a user and 200 to an admin', async () => {
      const target = await factory.user();
      const dormant = await factory.user();
      await asAdmin('patch', `/admin/users/${dormant.id}/deactivate`).expect(200);
      const routes: Array<{ method: 'get' | 'patch'; path: string }> = [
        ...listRoutes.map((path) => ({ method: 'get' as const, path })),
        { method: 'patch', path: `/admin/users/${target.id}/deactivate` },
        { method: 'patch', path: `/admin/users/${dormant.id}/reactivate` },
      ];
      for (const route of routes) {
        const anonymous = await testApp.http[route.method](route.path);
        expect({ route, status: anonymous.status, body: anonymous.body }).toEqual({
          route,
          status: 401,
          body: { detail: 'Authorization header missing' },
        });
        for (const auth of [plain.auth, `Bearer ${plain.jwt}`]) {
          const forbidden = await testApp.http[route.method](route.path).set('Authorization', auth);
          expect({ route, status: forbidden.status, body: forbidden.body }).toEqual({
            route,
            status: 403,
            body: { detail: 'Admin access required' },
          });
        }
        const allowed = await asAdmin(route.method, route.path);
        expect({ route, status: allowed.status }).toEqual({ route, status: 200 });
      }
      // The user's 403 did not deactivate anyone; the admin's calls did.
      const states = await testApp.db.query<{ id: string; state: string }>(
        'SELECT id, state FROM users WHERE id = ANY($1)',
        [[plain.id, target.id, dormant.id]],
      );
      expect(Object.fromEntries(states.rows.map((row) => [row.id, row.state]))).toEqual({
        [plain.id]: 'active',
        [target.id]: 'deactivated',
        [dormant.id]: 'active',
      });
    });

    it('should accept an admin JWT as well as an admin API key', async () => {
      await testApp.http
        .get('/admin/stats')
        .set('Authorization', `Bearer ${admin.jwt}`)
        .expect(200);
    });

    it('should answer 403 before validating the request of a non-admin', async () => {
      for (const action of ['deactivate', 'reactivate']) {
        expectDetail(
          await asAdmin('patch', `/admin/users/not-a-uuid/${action}`, plain),
          403,
          'Admin access required',
        );
      }
      expectDetail(
        await asAdmin('get', '/admin/users?limit=9999', plain),
        403,
        'Admin access required',
      );
    });
  });

  describe('GET /admin/stats', () => {
    it('should count users, tasks by state, and executions and notifications of the last 24 hours', async () => {
      const before = await stats();
      const user = await factory.user();
      await activeTask(user);
      const second = await activeTask(user);
      await factory.task(user, { state: 'paused' });
      const completed = await activeTask(user);
      await testApp.http
        .put(`/api/v1/tasks/${completed.id}`)
        .set('Authorization', user.auth)
        .send({ state: 'completed' })
        .expect(200);
      const success = await factory.execution(second, {
        conditionMet: true,
        answer: 'yes',
      });
      await factory.execution(second, { status: 'failed', errorMessage: 'boom' });
      await factory.execution(second, { status: 'failed', errorMessage: 'boom again' });
      await factory.execution(second, {
        createdAt: new Date(Date.now() - 25 * 3_600_000),
      });
      for (const [status, ageHours] of [
        ['success', 0],
        ['failed', 0],
        ['failed', 30],
      ] as const) {
        await factory.send(user, second, success, {
          status,
          createdAt: new Date(Date.now() - ageHours * 3_600_000),
        });
      }
      const after = await stats();
      const delta = (path: (value: Stats) => number): number => path(after) - path(before);
      expect({
        users: { total: delta((s) => s.users.total), active: delta((s) => s.users.active) },
        tasks: {
          total: delta((s) => s.tasks.total),
          active: delta((s) => s.tasks.active),
          paused: delta((s) => s.tasks.paused),
          completed: delta((s) => s.tasks.completed),
        },
        executions_24h: {
          total: delta((s) => s.executions_24h.total),
          success: delta((s) => s.executions_24h.success),
          failed: delta((s) => s.executions_24h.failed),
        },
        notifications_24h: {
          total: delta((s) => s.notifications_24h.total),
          failed: delta((s) => s.notifications_24h.failed),
        },
      }).toEqual({
        users: { total: 1, active: 1 },
        tasks: { total: 4, active: 2, paused: 1, completed: 1 },
        executions_24h: { total: 3, success: 1, failed: 2 },
        notifications_24h: { total: 2, failed: 1 },
      });
    });

    it('should answer whole numbers in the documented shape', async () => {
      const body = await stats();
      expect(Object.keys(body).sort()).toEqual([
        'executions_24h',
        'notifications_24h',
        'tasks',
        'users',
      ]);
      for (const group of Object.values(body) as Array<Record<string, unknown>>) {
        for (const value of Object.values(group)) expect(Number.isInteger(value)).toBe(true);
      }
    });
  });

  describe('lists', () => {
    it('should list search queries with task id, owner id and email, newest first', async () => {
      const user = await factory.user();
      const older = await factory.task(user, {
        name: 'Older query',
        search_query: 'When is the next eclipse?',
      });
      const newer = await factory.task(user, {
        name: 'Newer query',
        search_query: 'Is the bridge open again?',
      });
      const body = (await asAdmin('get', '/admin/queries?limit=2').expect(200)).body as {
        queries: Array<Record<string, unknown>>;
        total: number;
      };
      const count = await testApp.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tasks');
      expect(body.total).toBe(count.rows[0].n);
      expect(body.queries).toEqual([
        {
          task_id: newer.id,
          user_id: user.id,
          user_email: user.email,
          name: 'Newer query',
          search_query: 'Is the bridge open again?',
          condition_description: 'Is the bridge open again?',
          state: 'paused',
          is_public: false,
          created_at: newer.created_at,
        },
        expect.objectContaining({ task_id: older.id, search_query: 'When is the next eclipse?' }),
      ]);
    });

    it('should page with limit (default 50, at most 200) and offset', async () => {
      const user = await factory.user();
      await testApp.db.query(
        `INSERT INTO tasks (user_id, name, search_query, condition_description, state)
         SELECT $1, 'Bulk ' || n, 'Bulk query number ' || n, 'Bulk query number ' || n, 'paused'
         FROM generate_series(1, 60) AS n`,
        [user.id],
      );
      const first = (await asAdmin('get', '/admin/queries').expect(200)).body as {
        queries: Array<{ task_id: string }>;
        total: number;
      };
      expect(first.queries).toHaveLength(50);
      const shifted = (await asAdmin('get', '/admin/queries?offset=1&limit=3').expect(200))
        .body as {
        queries: Array<{ task_id: string }>;
      };
      expect(shifted.queries.map((query) => query.task_id)).toEqual(
        first.queries.slice(1, 4).map((query) => query.task_id),
      );
      expect(
        ((await asAdmin('get', '/admin/users?limit=200').expect(200)).body as { users: unknown[] })
          .users.length,
      ).toBeLessThanOrEqual(200);
      for (const path of [
        '/admin/queries',
        '/admin/executions',
        '/admin/scheduler/jobs',
        '/admin/errors',
        '/admin/users',
      ]) {
        expectValidationError(await asAdmin('get', `${path}?limit=201`), [
          { type: 'less_than_equal', loc: ['query', 'limit'] },
        ]);
        expectValidationError(await asAdmin('get', `${path}?limit=0`), [
          { type: 'greater_than_equal', loc: ['query', 'limit'] },
        ]);
        expectValidationError(await asAdmin('get', `${path}?offset=-1`), [
          { type: 'greater_than_equal', loc: ['query', 'offset'] },
        ]);
      }
    });

    it('should list all executions newest first with their task id and error details', async () => {
      const user = await factory.user();
      const task = await factory.task(user);
      const base = Date.now() + 60_000; // newer than anything else in this file
      const success = await factory.execution(task, {
        conditionMet: false,
        answer: 'no',
        createdAt: new Date(base),
      });
      const failed = await factory.execution(task, {
        status: 'failed',
        errorMessage: 'Provider answered 500',
        createdAt: new Date(base + 1000),
      });
      const body = (await asAdmin('get', '/admin/executions?limit=2').expect(200)).body as {
        executions: Array<Record<string, unknown>>;
        total: number;
      };
      const count = await testApp.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM executions',
      );
      expect(body.total).toBe(count.rows[0].n);
      expect(body.executions.map((execution) => execution.id)).toEqual([failed, success]);
      expect(body.executions[0]).toMatchObject({
        task_id: task.id,
        status: 'failed',
        error_message: 'Provider answered 500',
      });
    });

    it('should list only failed executions as errors, newest first, with error_message, task name and owner', async () => {
      const user = await factory.user();
      const task = await factory.task(user, { name: 'Flaky' });
      const base = Date.now() + 120_000;
      const olderError = await factory.execution(task, {
        status: 'failed',
        errorMessage: 'timeout',
        createdAt: new Date(base),
      });
      await factory.execution(task, {
        conditionMet: true,
        answer: 'fine',
        createdAt: new Date(base + 1000),
      });
      const newerError = await factory.execution(task, {
        status: 'failed',
        errorMessage: 'quota exceeded',
        createdAt: new Date(base + 2000),
      });
      const body = (await asAdmin('get', '/admin/errors?limit=2').expect(200)).body as {
        errors: Array<Record<string, unknown>>;
        total: number;
      };
      const count = await testApp.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM executions WHERE status = 'failed'",
      );
      expect(body.total).toBe(count.rows[0].n);
      expect(body.errors).toEqual([
        expect.objectContaining({
          id: newerError,
          task_id: task.id,
          status: 'failed',
          error_message: 'quota exceeded',
          task_name: 'Flaky',
          user_id: user.id,
        }),
        expect.objectContaining({ id: olderError, error_message: 'timeout' }),
      ]);
    });

    it("should list the queue's real check jobs: task, job id, state and next run", async () => {
      const user = await factory.user();
      const active = await activeTask(user);
      const paused = await factory.task(user, { state: 'paused' });
      const jobId = await checkJobId(active.id);
      expect(jobId).not.toBeNull();
      const body = (await asAdmin('get', '/admin/scheduler/jobs?limit=200').expect(200)).body as {
        jobs: Array<Record<string, unknown>>;
        total: number;
      };
      const count = await testApp.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'task-check' AND state IN ('created', 'retry', 'active')",
      );
      expect(body.total).toBe(count.rows[0].n);
      const job = body.jobs.find((candidate) => candidate.task_id === active.id);
      expect(job).toEqual({
        job_id: jobId,
        task_id: active.id,
        execution_id: null,
        state: 'created',
        start_after: expect.any(String),
        started_at: null,
        created_at: expect.any(String),
        retry_count: 0,
      });
      expect(
        Math.abs(Date.parse(job?.start_after as string) - Date.parse(active.next_run as string)),
      ).toBeLessThan(1000);
      expect(body.jobs.some((candidate) => candidate.task_id === paused.id)).toBe(false);
    });

    it('should list users with username, role, admin flag, state and task count', async () => {
      const user = await factory.user();
      const username = await setUsername(testApp, user);
      await factory.task(user);
      await factory.task(user);
      const body = (await asAdmin('get', '/admin/users?limit=200').expect(200)).body as {
        users: Array<Record<string, unknown>>;
        total: number;
      };
      const count = await testApp.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(body.total).toBe(count.rows[0].n);
      expect(body.users.find((candidate) => candidate.id === user.id)).toEqual({
        id: user.id,
        email: user.email,
        username,
        role: 'user',
        is_admin: false,
        state: 'active',
        created_at: expect.any(String),
        deactivated_at: null,
        task_count: 2,
      });
      expect(body.users.find((candidate) => candidate.id === admin.id)).toMatchObject({
        role: 'admin',
        is_admin: true,
      });
      expect(body.users[0].id).toBe(user.id);
    });
  });

  describe('PATCH /admin/users/{id}/deactivate', () => {
    it('should deactivate the user, pause every active task, remove their check jobs, cancel queued runs and keep the data', async () => {
      const user = await factory.user();
      const first = await activeTask(user);
      const second = await activeTask(user);
      const paused = await factory.task(user, { state: 'paused' });
      const completed = await activeTask(user);
      await testApp.http
        .put(`/api/v1/tasks/${completed.id}`)
        .set('Authorization', user.auth)
        .send({ state: 'completed' })
        .expect(200);
      const run = await testApp.http
        .post(`/api/v1/tasks/${first.id}/execute`)
        .set('Authorization', user.auth)
        .expect(200);
      const jobIds = [
        (await checkJobId(first.id)) as string,
        (await checkJobId(second.id)) as string,
      ];
      expect(await queuedJobs(jobIds)).toBe(2);
      const requestedAt = Date.now();

      const response = await asAdmin('patch', `/admin/users/${user.id}/deactivate`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'deactivated', user_id: user.id, tasks_paused: 2 });

      const tasks = await testApp.db.query<{
        id: string;
        state: string;
        next_run: Date | null;
        check_job_id: string | null;
        state_changed_at: Date;
      }>(
        'SELECT id, state, next_run, check_job_id, state_changed_at FROM tasks WHERE user_id = $1',
        [user.id],
      );
      const byId = new Map(tasks.rows.map((row) => [row.id, row]));
      expect(tasks.rowCount).toBe(4);
      for (const task of [first, second]) {
        expect(byId.get(task.id)).toMatchObject({
          state: 'paused',
          next_run: null,
          check_job_id: null,
        });
        expect(byId.get(task.id)?.state_changed_at.getTime()).toBeGreaterThanOrEqual(
          requestedAt - 1000,
        );
      }
      expect(byId.get(paused.id)?.state).toBe('paused');
      expect(byId.get(completed.id)?.state).toBe('completed');
      expect(await queuedJobs(jobIds)).toBe(0);
      const execution = await testApp.db.query<{ status: string; error_message: string }>(
        'SELECT status, error_message FROM executions WHERE id = $1',
        [(run.body as { id: string }).id],
      );
      expect(execution.rows[0]).toEqual({
        status: 'cancelled',
        error_message: 'Cancelled: the account was deactivated',
      });
      const stored = await testApp.db.query<{ state: string; deactivated_at: Date | null }>(
        'SELECT state, deactivated_at FROM users WHERE id = $1',
        [user.id],
      );
      expect(stored.rows[0].state).toBe('deactivated');
      expect(stored.rows[0].deactivated_at).not.toBeNull();
    });

    it("should refuse the user's API key and JWT afterwards with 401", async () => {
      const user = await factory.user();
      await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
      await asAdmin('patch', `/admin/users/${user.id}/deactivate`).expect(200);
      expectDetail(
        await testApp.http.get('/auth/me').set('Authorization', user.auth),
        401,
        'User account is deactivated',
      );
      expectDetail(
        await testApp.http.get('/api/v1/tasks').set('Authorization', `Bearer ${user.jwt}`),
        401,
        'User account is deactivated',
      );
      expectDetail(
        await testApp.http.post('/auth/sync-user').set('Authorization', `Bearer ${user.jwt}`),
        401,
        'User account is deactivated',
      );
    });

    it('should answer 200 with tasks_paused 0 when the user is already deactivated, keeping the first date', async () => {
      const user = await factory.user();
      await activeTask(user);
      expect(
        (await asAdmin('patch', `/admin/users/${user.id}/deactivate`).expect(200)).body,
      ).toMatchObject({ tasks_paused: 1 });
      const first = await testApp.db.query<{ deactivated_at: Date }>(
        'SELECT deactivated_at FROM users WHERE id = $1',
        [user.id],
      );
      const again = await asAdmin('patch', `/admin/users/${user.id}/deactivate`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ status: 'deactivated', user_id: user.id, tasks_paused: 0 });
      const second = await testApp.db.query<{ deactivated_at: Date }>(
        'SELECT deactivated_at FROM users WHERE id = $1',
        [user.id],
      );
      expect(second.rows[0].deactivated_at).toEqual(first.rows[0].deactivated_at);
    });

    it('should answer 404 for an unknown user, 422 for a non-UUID and 400 for the calling admin', async () => {
      expectDetail(
        await asAdmin('patch', `/admin/users/${randomUUID()}/deactivate`),
        404,
        'User not found',
      );
      expectValidationError(await asAdmin('patch', '/admin/users/not-a-uuid/deactivate'), [
        { type: 'uuid_parsing', loc: ['path', 'id'] },
      ]);
      expectDetail(
        await asAdmin('patch', `/admin/users/${admin.id}/deactivate`),
        400,
        'Administrators cannot deactivate their own account',
      );
      await testApp.http.get('/admin/stats').set('Authorization', admin.auth).expect(200);
    });

    it('should roll everything back when the queue refuses to remove a job', async () => {
      const user = await factory.user();
      const task = await activeTask(user);
      const jobId = (await checkJobId(task.id)) as string;
      const response = await withQueueFailure(testApp, 'DELETE', task.id, () =>
        asAdmin('patch', `/admin/users/${user.id}/deactivate`),
      );
      // A fixed reason: the queue's own message ('queue unavailable') stays in the log.
      expectServerError(
        response,
        'Failed to deactivate user: database error. Nothing was changed.',
      );
      const stored = await testApp.db.query<{ state: string }>(
        'SELECT state FROM users WHERE id = $1',
        [user.id],
      );
      expect(stored.rows[0].state).toBe('active');
      const storedTask = await testApp.db.query<{ state: string; check_job_id: string }>(
        'SELECT state, check_job_id FROM tasks WHERE id = $1',
        [task.id],
      );
      expect(storedTask.rows[0]).toEqual({ state: 'active', check_job_id: jobId });
      expect(await queuedJobs([jobId])).toBe(1);
      await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
    });
  });

  describe('PATCH /admin/users/{id}/reactivate', () => {
    async function storedUser(userId: string) {
      const rows = await testApp.db.query<{
        state: string;
        deactivated_at: Date | null;
        updated_at: Date;
      }>('SELECT state, deactivated_at, updated_at FROM users WHERE id = $1', [userId]);
      return rows.rows[0];
    }

    it("should let the user's API key and JWT in again and leave the tasks paused until the user resumes them", async () => {
      const user = await factory.user();
      const task = await activeTask(user);
      await asAdmin('patch', `/admin/users/${user.id}/deactivate`).expect(200);
      expectDetail(
        await testApp.http.get('/auth/me').set('Authorization', user.auth),
        401,
        'User account is deactivated',
      );

      const response = await asAdmin('patch', `/admin/users/${user.id}/reactivate`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'active', user_id: user.id });
      expect(await storedUser(user.id)).toMatchObject({ state: 'active', deactivated_at: null });

      await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
      await testApp.http.get('/auth/me').set('Authorization', `Bearer ${user.jwt}`).expect(200);
      const paused = await testApp.http
        .get(`/api/v1/tasks/${task.id}`)
        .set('Authorization', user.auth)
        .expect(200);
      expect(paused.body).toMatchObject({ state: 'paused', next_run: null });
      expect(await checkJobId(task.id)).toBeNull();

      const resumed = await testApp.http
        .put(`/api/v1/tasks/${task.id}`)
        .set('Authorization', user.auth)
        .send({ state: 'active' })
        .expect(200);
      expect(resumed.body).toMatchObject({ state: 'active' });
      const jobId = await checkJobId(task.id);
      expect(jobId).not.toBeNull();
      expect(await queuedJobs([jobId as string])).toBe(1);
    });

    it('should answer 200 and change nothing when the user is active', async () => {
      const user = await factory.user();
      const before = await storedUser(user.id);
      const again = await asAdmin('patch', `/admin/users/${user.id}/reactivate`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ status: 'active', user_id: user.id });
      expect(await storedUser(user.id)).toEqual(before);
      // An administrator may name themself: they are active.
      expect(
        (await asAdmin('patch', `/admin/users/${admin.id}/reactivate`).expect(200)).body,
      ).toEqual({ status: 'active', user_id: admin.id });
    });

    it('should answer 404 for an unknown user and 422 for a non-UUID', async () => {
      expectDetail(
        await asAdmin('patch', `/admin/users/${randomUUID()}/reactivate`),
        404,
        'User not found',
      );
      expectValidationError(await asAdmin('patch', '/admin/users/not-a-uuid/reactivate'), [
        { type: 'uuid_parsing', loc: ['path', 'id'] },
      ]);
    });
  });
});
