import { randomUUID } from 'node:crypto';
import { expectDetail, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import type { TaskBody } from '../tasks/task-api';
import { startTestApp, type TestApp } from '../support/test-app';
import { createPublicTask, ownerSecrets, setUsername } from './sharing-fixtures';

// A type alias, not an interface, so a task's notification records can be read as one.
type WebhookConfig = {
  type: 'webhook';
  url: string;
  method: string;
  headers: Record<string, string>;
  secret: string;
};

describe('Task sharing: visibility and forks', () => {
  let testApp: TestApp;
  let factory: Factory;

  beforeAll(async () => {
    testApp = await startTestApp();
    factory = new Factory(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  function setVisibility(user: TestUser | null, taskId: string, body: unknown) {
    const call = testApp.http.patch(`/api/v1/tasks/${taskId}/visibility`);
    return (user ? call.set('Authorization', user.auth) : call).send(body as object);
  }

  function fork(user: TestUser | null, taskId: string, body?: Record<string, unknown>) {
    const call = testApp.http.post(`/api/v1/tasks/${taskId}/fork`);
    const authorized = user ? call.set('Authorization', user.auth) : call;
    return body === undefined ? authorized : authorized.send(body);
  }

  async function getTask(user: TestUser, taskId: string): Promise<TaskBody> {
    return (
      await testApp.http.get(`/api/v1/tasks/${taskId}`).set('Authorization', user.auth).expect(200)
    ).body as TaskBody;
  }

  async function checkJobsOf(taskId: string): Promise<number> {
    const jobs = await testApp.db.query(
      "SELECT id FROM pgboss.job WHERE name = 'task-check' AND singleton_key = $1 AND state IN ('created', 'retry', 'active')",
      [taskId],
    );
    return jobs.rowCount ?? 0;
  }

  describe('PATCH /api/v1/tasks/{id}/visibility', () => {
    it('should answer 400 when making a task public without a username, and change nothing', async () => {
      const owner = await factory.user();
      const task = await factory.task(owner);
      expectDetail(
        await setVisibility(owner, task.id, { is_public: true }),
        400,
        'A username must be set before a task can be made public',
      );
      expect((await getTask(owner, task.id)).is_public).toBe(false);
    });

    it('should make a task public once the owner has a username, and private again', async () => {
      const owner = await factory.user();
      const task = await factory.task(owner);
      await setUsername(testApp, owner);
      const published = await setVisibility(owner, task.id, { is_public: true });
      expect(published.status).toBe(200);
      expect(published.body).toEqual({ is_public: true });
      expect((await getTask(owner, task.id)).is_public).toBe(true);
      await testApp.http.get(`/api/v1/tasks/${task.id}`).expect(200);

      const hidden = await setVisibility(owner, task.id, { is_public: false });
      expect(hidden.body).toEqual({ is_public: false });
      expectDetail(await testApp.http.get(`/api/v1/tasks/${task.id}`), 404, 'Task not found');
    });

    it('should make a task private without a username', async () => {
      const owner = await factory.user();
      const task = await factory.task(owner);
      const response = await setVisibility(owner, task.id, { is_public: false });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ is_public: false });
    });

    it('should set updated_at on the task', async () => {
      const owner = await factory.user();
      await setUsername(testApp, owner);
      const task = await factory.task(owner);
      expect(task.updated_at).toBeNull();
      await setVisibility(owner, task.id, { is_public: true }).expect(200);
      expect((await getTask(owner, task.id)).updated_at).toEqual(expect.any(String));
    });

    it('should answer 404 "Task not found" for another user\'s task (public or not) and an unknown id', async () => {
      const owner = await factory.user();
      const stranger = await factory.user();
      await setUsername(testApp, stranger);
      const privateTask = await factory.task(owner);
      const publicTask = await createPublicTask(testApp, owner);
      expectDetail(
        await setVisibility(stranger, privateTask.id, { is_public: true }),
        404,
        'Task not found',
      );
      expectDetail(
        await setVisibility(stranger, publicTask.id, { is_public: false }),
        404,
        'Task not found',
      );
      expectDetail(
        await setVisibility(stranger, randomUUID(), { is_public: false }),
        404,
        'Task not found',
      );
      expect((await getTask(owner, publicTask.id)).is_public).toBe(true);
    });

    it('should answer 404 rather than 400 for a stranger without a username', async () => {
      const owner = await factory.user();
      const stranger = await factory.user();
      const task = await factory.task(owner);
      expectDetail(
        await setVisibility(stranger, task.id, { is_public: true }),
        404,
        'Task not found',
      );
    });

    it('should answer 422 when is_public is missing or not a boolean, and for a non-UUID id', async () => {
      const owner = await factory.user();
      const task = await factory.task(owner);
      expectValidationError(await setVisibility(owner, task.id, {}), [
        { type: 'missing', loc: ['body', 'is_public'], msg: 'Field required' },
      ]);
      expectValidationError(await setVisibility(owner, task.id, { is_public: 'yes' }), [
        { type: 'bool_type', loc: ['body', 'is_public'] },
      ]);
      expectValidationError(await setVisibility(owner, 'not-a-uuid', { is_public: true }), [
        { type: 'uuid_parsing', loc: ['path', 'id'] },
      ]);
    });

    it('should answer 401 without credentials', async () => {
      expectDetail(
        await setVisibility(null, randomUUID(), { is_public: true }),
        401,
        'Authorization header missing',
      );
    });
  });

  describe('POST /api/v1/tasks/{id}/fork', () => {
    it("should copy another user's public task as a paused private task without its notifications", async () => {
      const owner = await factory.user();
      const forker = await factory.user();
      const secrets = ownerSecrets();
      const original = await createPublicTask(testApp, owner, {
        secrets,
        body: {
          name: 'Rust release watch',
          search_query: 'Has Rust 2.0 been released?',
          condition_description: 'An official announcement of Rust 2.0 exists',
          notify_behavior: 'always',
          state: 'active',
        },
      });

      const response = await fork(forker, original.id);
      expect(response.status).toBe(200);
      const forked = response.body as TaskBody;
      expect(forked).toMatchObject({
        user_id: forker.id,
        name: 'Rust release watch (Copy)',
        search_query: 'Has Rust 2.0 been released?',
        condition_description: 'An official announcement of Rust 2.0 exists',
        notify_behavior: 'always',
        state: 'paused',
        is_public: false,
        next_run: null,
        view_count: 0,
        subscriber_count: 0,
        forked_from_task_id: original.id,
        last_known_state: null,
        last_execution_id: null,
        last_execution: null,
        notifications: [],
        notification_email: null,
        webhook_url: null,
      });
      expect(forked.id).not.toBe(original.id);
      const text = JSON.stringify(forked);
      for (const secret of [
        secrets.email,
        secrets.webhookUrl,
        secrets.headerName,
        secrets.headerValue,
        owner.id,
      ]) {
        expect(text).not.toContain(secret);
      }
      const stored = await testApp.db.query(
        'SELECT notifications, check_job_id, user_id FROM tasks WHERE id = $1',
        [forked.id],
      );
      expect(stored.rows[0]).toEqual({ notifications: [], check_job_id: null, user_id: forker.id });
      expect(await checkJobsOf(forked.id)).toBe(0);

      expect((await getTask(owner, original.id)).subscriber_count).toBe(1);
      expect((await getTask(forker, forked.id)).state).toBe('paused');
    });

    it('should keep the notification config when forking an own private task, with a new webhook secret', async () => {
      const owner = await factory.user();
      const secrets = ownerSecrets();
      const original = await factory.task(owner, {
        name: 'Own task',
        notifications: [
          { type: 'email', address: secrets.email },
          {
            type: 'webhook',
            url: secrets.webhookUrl,
            method: 'PUT',
            headers: { [secrets.headerName]: secrets.headerValue },
          },
        ],
      });
      const response = await fork(owner, original.id);
      expect(response.status).toBe(200);
      const forked = response.body as TaskBody & { notifications: Array<{ type: string }> };
      expect(forked).toMatchObject({
        name: 'Own task (Copy)',
        state: 'paused',
        is_public: false,
        forked_from_task_id: original.id,
        notification_email: secrets.email,
        webhook_url: secrets.webhookUrl,
      });
      const originalWebhook = (original.notifications as WebhookConfig[]).find(
        (config) => config.type === 'webhook',
      );
      const forkedWebhook = (forked.notifications as WebhookConfig[]).find(
        (config) => config.type === 'webhook',
      );
      expect(forkedWebhook).toEqual({
        type: 'webhook',
        url: secrets.webhookUrl,
        method: 'PUT',
        headers: { [secrets.headerName]: secrets.headerValue },
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{32,}$/),
      });
      expect(forkedWebhook?.secret).not.toBe(originalWebhook?.secret);
      expect(forked.notifications).toContainEqual({ type: 'email', address: secrets.email });
      expect((await getTask(owner, original.id)).subscriber_count).toBe(0);
    });

    it('should keep the notification config and not count a subscriber when forking an own public task', async () => {
      const owner = await factory.user();
      const secrets = ownerSecrets();
      const original = await createPublicTask(testApp, owner, { secrets });
      const forked = (await fork(owner, original.id).expect(200)).body as TaskBody;
      expect(forked).toMatchObject({
        notification_email: secrets.email,
        webhook_url: secrets.webhookUrl,
        is_public: false,
      });
      expect((await getTask(owner, original.id)).subscriber_count).toBe(0);
    });

    it('should answer 404 "Task not found" for another user\'s private task and for an unknown task', async () => {
      const owner = await factory.user();
      const stranger = await factory.user();
      const original = await factory.task(owner);
      expectDetail(await fork(stranger, original.id), 404, 'Task not found');
      expectDetail(await fork(stranger, randomUUID()), 404, 'Task not found');
      const count = await testApp.db.query(
        'SELECT count(*)::int AS n FROM tasks WHERE user_id = $1',
        [stranger.id],
      );
      expect(count.rows[0]).toEqual({ n: 0 });
      expect((await getTask(owner, original.id)).subscriber_count).toBe(0);
    });

    it('should name forks "(Copy)", then "(Copy 2)", "(Copy 3)" while the name is taken, and 409 after that', async () => {
      const owner = await factory.user();
      const forker = await factory.user();
      const original = await createPublicTask(testApp, owner, { body: { name: 'Weather' } });
      const names: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        names.push(((await fork(forker, original.id).expect(200)).body as TaskBody).name);
      }
      expect(names).toEqual([
        'Weather (Copy)',
        'Weather (Copy 2)',
        'Weather (Copy 3)',
        'Weather (Copy 4)',
        'Weather (Copy 5)',
      ]);
      const collided = await fork(forker, original.id);
      expect(collided.status).toBe(409);
      expect((collided.body as { detail: string }).detail).toMatch(/already exists/);
      // One user forking five times is one subscriber (docs/api.md, "Tasks").
      expect((await getTask(owner, original.id)).subscriber_count).toBe(1);
    });

    it('should count distinct users who forked, each once, also when they fork at once', async () => {
      const owner = await factory.user();
      const original = await createPublicTask(testApp, owner, { body: { name: 'Popular' } });
      const forkers = [await factory.user(), await factory.user(), await factory.user()];
      await Promise.all(
        forkers.flatMap((forker) => [
          fork(forker, original.id, { name: 'First copy' }).expect(200),
          fork(forker, original.id, { name: 'Second copy' }).expect(200),
        ]),
      );
      expect((await getTask(owner, original.id)).subscriber_count).toBe(3);
    });

    it('should fill the first free copy name when an earlier one was renamed away', async () => {
      const owner = await factory.user();
      const original = await factory.task(owner, { name: 'Gaps' });
      await factory.task(owner, { name: 'Gaps (Copy 2)' });
      expect(((await fork(owner, original.id).expect(200)).body as TaskBody).name).toBe(
        'Gaps (Copy)',
      );
      expect(((await fork(owner, original.id).expect(200)).body as TaskBody).name).toBe(
        'Gaps (Copy 3)',
      );
    });

    it('should give distinct names to forks one user sends at the same moment', async () => {
      const owner = await factory.user();
      const forker = await factory.user();
      const original = await createPublicTask(testApp, owner, { body: { name: 'Race' } });
      const responses = await Promise.all([0, 1, 2].map(() => fork(forker, original.id)));
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
      expect(responses.map((response) => (response.body as TaskBody).name).sort()).toEqual([
        'Race (Copy 2)',
        'Race (Copy 3)',
        'Race (Copy)',
      ]);
    });

    it('should count every fork when many users fork at the same moment', async () => {
      const owner = await factory.user();
      const original = await createPublicTask(testApp, owner);
      const forkers = await Promise.all(Array.from({ length: 8 }, () => factory.user()));
      const responses = await Promise.all(forkers.map((forker) => fork(forker, original.id)));
      expect(responses.every((response) => response.status === 200)).toBe(true);
      expect((await getTask(owner, original.id)).subscriber_count).toBe(8);
    });

    it('should use the name sent in the body as given', async () => {
      const owner = await factory.user();
      const forker = await factory.user();
      const original = await createPublicTask(testApp, owner, { body: { name: 'Original' } });
      const forked = (await fork(forker, original.id, { name: 'My version' }).expect(200))
        .body as TaskBody;
      expect(forked.name).toBe('My version');
    });

    it('should cut a long original name so the copy name fits in 200 characters', async () => {
      const owner = await factory.user();
      const original = await factory.task(owner, { name: `${'n'.repeat(199)}🙂` });
      const first = ((await fork(owner, original.id).expect(200)).body as TaskBody).name;
      expect(first).toBe(`${'n'.repeat(193)} (Copy)`);
      const second = ((await fork(owner, original.id).expect(200)).body as TaskBody).name;
      expect(second).toBe(`${'n'.repeat(191)} (Copy 2)`);
      expect(Array.from(second)).toHaveLength(200);
    });

    it('should answer 422 for an empty or too long name and a non-UUID id', async () => {
      const owner = await factory.user();
      const original = await factory.task(owner);
      expectValidationError(await fork(owner, original.id, { name: '' }), [
        { type: 'string_too_short', loc: ['body', 'name'] },
      ]);
      expectValidationError(await fork(owner, original.id, { name: 'x'.repeat(201) }), [
        { type: 'string_too_long', loc: ['body', 'name'] },
      ]);
      expectValidationError(await fork(owner, 'not-a-uuid'), [
        { type: 'uuid_parsing', loc: ['path', 'id'] },
      ]);
    });

    it('should answer 401 without credentials', async () => {
      const owner = await factory.user();
      const original = await createPublicTask(testApp, owner);
      expectDetail(await fork(null, original.id), 401, 'Authorization header missing');
      expect((await getTask(owner, original.id)).subscriber_count).toBe(0);
    });

    it('should let the fork be activated, which schedules its first check', async () => {
      const owner = await factory.user();
      const forker = await factory.user();
      const original = await createPublicTask(testApp, owner);
      const forked = (await fork(forker, original.id).expect(200)).body as TaskBody;
      await testApp.http
        .put(`/api/v1/tasks/${forked.id}`)
        .set('Authorization', forker.auth)
        .send({ state: 'active' })
        .expect(200);
      const stored = await testApp.db.query<{ state: string; check_job_id: string | null }>(
        'SELECT state, check_job_id FROM tasks WHERE id = $1',
        [forked.id],
      );
      expect(stored.rows[0].state).toBe('active');
      expect(stored.rows[0].check_job_id).not.toBeNull();
    });
  });
});
