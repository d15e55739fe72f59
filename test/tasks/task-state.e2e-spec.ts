import { expectDetail, expectServerError, expectValidationError } from '../support/errors';
import type { TestUser } from '../support/factory';
import { checkReply } from '../support/gemini-stand-in';
import type { TestApp } from '../support/test-app';
import { withQueueFailure } from '../support/queue-failure';
import { waitFor } from '../support/wait';
import {
  ISO_TIMESTAMP,
  type ProviderScript,
  type TaskApi,
  startTaskHarness,
  type TaskHarness,
  uniqueQuery,
  UUID,
  type TaskBody,
} from './task-api';

describe('Tasks: update and state transitions', () => {
  let testApp: TestApp;
  let provider: ProviderScript;
  let api: TaskApi;
  let owner: TestUser;
  let stranger: TestUser;
  let harness: TaskHarness;

  beforeAll(async () => {
    harness = await startTaskHarness();
    ({ testApp, provider, api, owner, stranger } = harness);
  });

  afterAll(() => harness.close());

  function put(id: string, body: Record<string, unknown>, user: TestUser = owner) {
    return testApp.http.put(`/api/v1/tasks/${id}`).set('Authorization', user.auth).send(body);
  }

  /** An active task whose first check is behind it, so its queue job is the next scheduled one. */
  async function settledActiveTask(): Promise<TaskBody> {
    const task = await api.create(owner, { search_query: uniqueQuery() });
    await api.waitForIdle(task.id);
    return api.get(owner, task.id);
  }

  async function completedTask(): Promise<TaskBody> {
    const task = await settledActiveTask();
    const response = await put(task.id, { state: 'completed' });
    expect(response.status).toBe(200);
    return response.body as TaskBody;
  }

  describe('PUT /api/v1/tasks/{id}', () => {
    it('should change only the given fields and set updated_at when only the name is sent', async () => {
      const task = await api.create(owner, {
        search_query: uniqueQuery(),
        condition_description: 'The thing has shipped',
        state: 'paused',
      });
      const response = await put(task.id, { name: 'Renamed monitor' });
      expect(response.status).toBe(200);
      const updated = response.body as TaskBody;
      expect(updated).toMatchObject({
        id: task.id,
        name: 'Renamed monitor',
        search_query: task.search_query,
        condition_description: 'The thing has shipped',
        state: 'paused',
        notify_behavior: 'once',
        created_at: task.created_at,
        state_changed_at: task.state_changed_at,
      });
      expect(updated.updated_at).toMatch(ISO_TIMESTAMP);
      expect(Date.parse(updated.updated_at!)).toBeGreaterThanOrEqual(Date.parse(task.created_at));
      expect(await api.get(owner, task.id)).toMatchObject({
        name: 'Renamed monitor',
        search_query: task.search_query,
        updated_at: updated.updated_at,
      });
    });

    it('should change search_query and condition_description when they are sent', async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      const response = await put(task.id, {
        search_query: 'a brand new query',
        condition_description: 'a brand new condition',
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        name: task.name,
        search_query: 'a brand new query',
        condition_description: 'a brand new condition',
      });
    });

    it('should answer 422 enum when the state is not a known value', async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      expectValidationError(await put(task.id, { state: 'archived' }), [
        { type: 'enum', loc: ['body', 'state'] },
      ]);
    });

    it('should change notify_behavior when it is sent', async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      const response = await put(task.id, { notify_behavior: 'always' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ notify_behavior: 'always', name: task.name });
    });

    it('should replace notifications and keep the webhook secret when the URL is unchanged', async () => {
      const webhook = { type: 'webhook', url: 'http://127.0.0.1:9/hook' };
      const task = await api.create(owner, {
        search_query: uniqueQuery(),
        state: 'paused',
        notifications: [webhook],
      });
      const secret = task.notifications[0].secret as string;
      expect(secret).toMatch(/^whsec_/);

      const response = await put(task.id, {
        notifications: [
          { ...webhook, method: 'PUT' },
          { type: 'email', address: 'new@example.com' },
        ],
      });
      expect(response.status).toBe(200);
      const updated = response.body as TaskBody;
      expect(updated.notifications).toEqual([
        { type: 'webhook', url: webhook.url, method: 'PUT', headers: {}, secret },
        { type: 'email', address: 'new@example.com' },
      ]);
      expect(updated.notification_email).toBe('new@example.com');
    });

    it('should answer 400 "Invalid notification: ..." and change nothing when an update sends a bad config', async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      const response = await put(task.id, {
        name: 'should not stick',
        notifications: [{ type: 'email', address: 'nope' }],
      });
      expectDetail(response, 400, /^Invalid notification: .+/);
      expect(await api.get(owner, task.id)).toMatchObject({
        name: task.name,
        notifications: [],
        updated_at: null,
      });
    });

    it("should answer 404 'Task not found' when another user updates the task", async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      expectDetail(await put(task.id, { name: 'hijacked' }, stranger), 404, 'Task not found');
      expect((await api.get(owner, task.id)).name).toBe(task.name);
    });
  });

  describe('state transitions', () => {
    it('should clear next_run and remove the queue job when an active task is paused', async () => {
      const task = await settledActiveTask();
      const { check_job_id: jobId } = await api.row(task.id);
      expect(jobId).toMatch(UUID);
      expect(await api.jobExists(jobId!)).toBe(true);

      const response = await put(task.id, { state: 'paused' });
      expect(response.status).toBe(200);
      const paused = response.body as TaskBody;
      expect(paused).toMatchObject({ state: 'paused', next_run: null });
      expect(Date.parse(paused.state_changed_at)).toBeGreaterThan(
        Date.parse(task.state_changed_at),
      );
      expect(await api.jobExists(jobId!)).toBe(false);
      expect((await api.row(task.id)).check_job_id).toBeNull();
      expect(await api.liveJobs(task.id)).toEqual([]);
    });

    it('should stay paused with no job when it is paused while its check is running', async () => {
      const query = uniqueQuery('pause-mid-check');
      provider.script(query, { delayMs: 1000, then: checkReply() });
      const task = await api.create(owner, { search_query: query });
      await waitFor(async () => provider.requestsFor(query).length === 1, {
        what: 'the first check to reach the provider',
      });

      expect((await put(task.id, { state: 'paused' })).status).toBe(200);
      await api.waitForIdle(task.id);
      const after = await api.get(owner, task.id);
      expect(after).toMatchObject({ state: 'paused', next_run: null });
      expect(after.last_execution?.status).toBe('success');
      expect(await api.liveJobs(task.id)).toEqual([]);
      expect((await api.row(task.id)).check_job_id).toBeNull();
    });

    it('should create a new queue job and set next_run when a paused task is resumed', async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      expect(await api.liveJobs(task.id)).toEqual([]);

      const response = await put(task.id, { state: 'active' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        state: 'active',
        next_run: expect.stringMatching(ISO_TIMESTAMP),
      });
      const { check_job_id: jobId } = await api.row(task.id);
      expect(jobId).toMatch(UUID);
      expect(await api.jobExists(jobId!)).toBe(true);
      // The resumed task is due at once; after its check it keeps a live job for the next one.
      await api.waitForIdle(task.id);
      expect(await api.liveJobs(task.id)).toHaveLength(1);
    });

    it('should clear next_run and remove the queue job when an active task is completed', async () => {
      const task = await settledActiveTask();
      const { check_job_id: jobId } = await api.row(task.id);
      const response = await put(task.id, { state: 'completed' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ state: 'completed', next_run: null });
      expect(await api.jobExists(jobId!)).toBe(false);
      expect(await api.liveJobs(task.id)).toEqual([]);
    });

    it('should create a new queue job when a completed task is made active again', async () => {
      const task = await completedTask();
      const response = await put(task.id, { state: 'active' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        state: 'active',
        next_run: expect.stringMatching(ISO_TIMESTAMP),
      });
      const { check_job_id: jobId } = await api.row(task.id);
      expect(jobId).toMatch(UUID);
      expect(await api.jobExists(jobId!)).toBe(true);
    });

    it("should answer 400 'Invalid state transition: paused -> completed' and keep the task paused", async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      expectDetail(
        await put(task.id, { state: 'completed' }),
        400,
        'Invalid state transition: paused -> completed',
      );
      expect((await api.get(owner, task.id)).state).toBe('paused');
    });

    it("should answer 400 'Invalid state transition: completed -> paused' and keep the task completed", async () => {
      const task = await completedTask();
      expectDetail(
        await put(task.id, { state: 'paused' }),
        400,
        'Invalid state transition: completed -> paused',
      );
      expect((await api.get(owner, task.id)).state).toBe('completed');
    });

    it('should roll back every change and answer 500 when the scheduler fails to pause a task', async () => {
      const task = await settledActiveTask();
      const before = await api.row(task.id);
      expect(before.check_job_id).toMatch(UUID);
      // A real database failure in the queue, for this task's jobs only.
      const response = await withQueueFailure(testApp, 'DELETE', task.id, () =>
        put(task.id, { name: 'renamed', state: 'paused' }),
      );
      expectServerError(
        response,
        'Failed to change task state: database error. Task update rolled back.',
      );

      expect(await api.row(task.id)).toEqual(before);
      expect(await api.jobExists(before.check_job_id!)).toBe(true);
      expect(await api.get(owner, task.id)).toMatchObject({
        name: task.name,
        state: 'active',
        next_run: task.next_run,
        updated_at: null,
      });
    });

    it('should roll back every change and answer 500 when the scheduler fails to resume a task', async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      const response = await withQueueFailure(testApp, 'INSERT', task.id, () =>
        put(task.id, { name: 'renamed', state: 'active' }),
      );
      expectServerError(
        response,
        'Failed to change task state: database error. Task update rolled back.',
      );

      expect(await api.get(owner, task.id)).toMatchObject({
        name: task.name,
        state: 'paused',
        next_run: null,
        updated_at: null,
      });
      expect(await api.row(task.id)).toMatchObject({ state: 'paused', check_job_id: null });
      expect(await api.liveJobs(task.id)).toEqual([]);
    });
  });
});

describe('Tasks: the active task limit', () => {
  let harness: TaskHarness;

  beforeAll(async () => {
    harness = await startTaskHarness({ MAX_ACTIVE_TASKS_PER_USER: '2' });
  });

  afterAll(() => harness.close());

  const LIMIT_REACHED = 'Active task limit reached (2)';

  function create(user: TestUser, state: string) {
    return harness.testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .send({ search_query: uniqueQuery('cap'), state });
  }

  it('should answer 409 when a create or a resume would pass MAX_ACTIVE_TASKS_PER_USER', async () => {
    const user = await harness.factory.user();
    const first = await harness.api.create(user, { search_query: uniqueQuery('cap') });
    await harness.api.create(user, { search_query: uniqueQuery('cap') });
    expectDetail(await create(user, 'active'), 409, LIMIT_REACHED);

    const paused = (await create(user, 'paused').expect(200)).body as TaskBody;
    const resume = () =>
      harness.testApp.http
        .put(`/api/v1/tasks/${paused.id}`)
        .set('Authorization', user.auth)
        .send({ state: 'active' });
    expectDetail(await resume(), 409, LIMIT_REACHED);
    expect((await harness.api.get(user, paused.id)).state).toBe('paused');

    await harness.testApp.http
      .put(`/api/v1/tasks/${first.id}`)
      .set('Authorization', user.auth)
      .send({ state: 'paused' })
      .expect(200);
    expect((await resume()).status).toBe(200);
    // Another user has a limit of their own.
    expect((await create(harness.stranger, 'active')).status).toBe(200);
  });

  it('should let exactly the limit through when creates race each other', async () => {
    const user = await harness.factory.user();
    const statuses = (
      await Promise.all(Array.from({ length: 6 }, () => create(user, 'active')))
    ).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 409)).toHaveLength(4);
  });
});
