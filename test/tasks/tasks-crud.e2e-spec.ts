import { expectDetail, expectValidationError } from '../support/errors';
import type { TestUser } from '../support/factory';
import { checkReply } from '../support/gemini-stand-in';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import {
  ISO_TIMESTAMP,
  type ProviderScript,
  type TaskApi,
  startTaskHarness,
  type TaskHarness,
  uniqueQuery,
  UUID,
  type ExecutionBody,
  type TaskBody,
} from './task-api';

describe('Tasks: create, list, get and delete', () => {
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

  const webhook = { type: 'webhook', url: 'http://127.0.0.1:9/hook', method: 'POST' };

  describe('POST /api/v1/tasks', () => {
    it('should return every Task field with the documented defaults when only search_query is sent', async () => {
      const query = uniqueQuery('defaults');
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({ search_query: query });

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        user_id: owner.id,
        name: 'New Monitor',
        search_query: query,
        condition_description: query,
        state: 'active',
        notify_behavior: 'once',
        output_schema: null,
        evidence: null,
        pages: null,
        page_rule: null,
        alert_policy: null,
        alert: null,
        next_run: expect.stringMatching(ISO_TIMESTAMP),
        is_public: false,
        view_count: 0,
        subscriber_count: 0,
        forked_from_task_id: null,
        last_known_state: null,
        last_execution_id: null,
        last_execution: null,
        notifications: [],
        notification_email: null,
        webhook_url: null,
        state_changed_at: expect.stringMatching(ISO_TIMESTAMP),
        immediate_execution_error: null,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_at: null,
      });
    });

    it('should create a paused task with no next run when state is paused', async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      expect(task).toMatchObject({ state: 'paused', next_run: null });
      expect(await api.liveJobs(task.id)).toEqual([]);
    });

    it('should answer 422 enum when state is completed on create', async () => {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({ search_query: uniqueQuery(), state: 'completed' });
      expectValidationError(response, [{ type: 'enum', loc: ['body', 'state'] }]);
    });

    it('should answer 422 missing "Field required" when search_query is absent', async () => {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({ name: 'No query' });
      expectValidationError(response, [
        { type: 'missing', loc: ['body', 'search_query'], msg: 'Field required' },
      ]);
    });

    it.each([
      ['search_query', 9, 'string_too_short', { search_query: 'x'.repeat(9) }],
      ['search_query', 501, 'string_too_long', { search_query: 'x'.repeat(501) }],
      [
        'condition_description',
        9,
        'string_too_short',
        { search_query: 'long enough query', condition_description: 'x'.repeat(9) },
      ],
      [
        'condition_description',
        501,
        'string_too_long',
        { search_query: 'long enough query', condition_description: 'x'.repeat(501) },
      ],
      [
        'name',
        201,
        'string_too_long',
        { search_query: 'long enough query', name: 'x'.repeat(201) },
      ],
    ])('should answer 422 when %s has %i characters (%s)', async (field, _length, type, body) => {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send(body);
      expectValidationError(response, [{ type, loc: ['body', field] }]);
    });

    it('should accept the bounds themselves when the texts are 10 and 500 characters and the name 200', async () => {
      const task = await api.create(owner, {
        search_query: 'q'.repeat(10),
        condition_description: 'c'.repeat(500),
        name: 'n'.repeat(200),
        state: 'paused',
      });
      expect(task.name).toHaveLength(200);
    });

    it('should ignore a schedule when one is sent anyway', async () => {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        // Once a year: honouring it would put next_run far from now.
        .send({ search_query: uniqueQuery('schedule'), schedule: '0 0 1 1 *' });
      expect(response.status).toBe(200);
      const task = response.body as TaskBody;
      expect(task).not.toHaveProperty('schedule');
      expect(task.state).toBe('active');
      expect(Math.abs(Date.parse(task.next_run!) - Date.parse(task.created_at))).toBeLessThan(
        10_000,
      );
    });

    it('should store email and webhook configs, mirror them and give the webhook a secret', async () => {
      const task = await api.create(owner, {
        search_query: uniqueQuery(),
        state: 'paused',
        notifications: [
          { type: 'email', address: 'alerts@example.com' },
          { ...webhook, headers: { 'X-Token': 'abc' } },
        ],
      });
      expect(task.notifications).toEqual([
        { type: 'email', address: 'alerts@example.com' },
        {
          type: 'webhook',
          url: 'http://127.0.0.1:9/hook',
          method: 'POST',
          headers: { 'X-Token': 'abc' },
          secret: expect.stringMatching(/^whsec_/),
        },
      ]);
      expect(task.notification_email).toBe('alerts@example.com');
      expect(task.webhook_url).toBe('http://127.0.0.1:9/hook');
      const stored = await api.get(owner, task.id);
      expect(stored.notifications).toEqual(task.notifications);
    });

    it('should answer 400 "Invalid notification: ..." when the email address is invalid', async () => {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({
          search_query: uniqueQuery(),
          notifications: [{ type: 'email', address: 'not-an-address' }],
        });
      expectDetail(response, 400, /^Invalid notification: .+/);
    });

    it('should answer 400 "Invalid notification: ..." when the webhook method is GET', async () => {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({ search_query: uniqueQuery(), notifications: [{ ...webhook, method: 'GET' }] });
      expectDetail(response, 400, /^Invalid notification: .+/);
    });

    it('should answer 400 about multiple configs of the same type when two emails are sent', async () => {
      const query = uniqueQuery();
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({
          search_query: query,
          notifications: [
            { type: 'email', address: 'one@example.com' },
            { type: 'email', address: 'two@example.com' },
          ],
        });
      expectDetail(response, 400, /multiple.*same type|same type.*multiple/i);
      const { rows } = await testApp.db.query('SELECT 1 FROM tasks WHERE search_query = $1', [
        query,
      ]);
      expect(rows).toHaveLength(0);
    });

    it('should start a run at once when run_immediately is true', async () => {
      const query = uniqueQuery('immediate');
      provider.script(query, checkReply({ answer: 'ran immediately' }));
      const task = await api.create(owner, { search_query: query, run_immediately: true });
      expect(task.immediate_execution_error).toBeNull();

      const { rows } = await testApp.db.query<{ id: string }>(
        "SELECT id FROM executions WHERE task_id = $1 AND trigger = 'manual'",
        [task.id],
      );
      expect(rows).toHaveLength(1);
      const execution = await api.waitForExecution(owner, task.id, rows[0].id);
      expect(execution).toMatchObject({ status: 'success', answer: 'ran immediately' });
    });

    it('should give an active task its first check right away when it is created', async () => {
      const query = uniqueQuery('first-check');
      provider.script(query, checkReply({ answer: 'first scheduled answer' }));
      const task = await api.create(owner, { search_query: query });
      const checked = await waitFor(
        async () => {
          const current = await api.get(owner, task.id);
          return current.last_execution?.status === 'success' ? current : undefined;
        },
        { what: 'the first check', timeoutMs: 25_000 },
      );
      expect(checked.last_execution).toMatchObject({
        task_id: task.id,
        answer: 'first scheduled answer',
      });
      expect(checked.last_execution_id).toBe(checked.last_execution!.id);
    });
  });

  describe('GET /api/v1/tasks', () => {
    it("should list the caller's own tasks as a bare array without another user's", async () => {
      const mine = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      const theirs = await api.create(stranger, { search_query: uniqueQuery(), state: 'paused' });
      const response = await testApp.http
        .get('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .expect(200);
      expect(Array.isArray(response.body)).toBe(true);
      const tasks = response.body as TaskBody[];
      const ids = tasks.map((task) => task.id);
      expect(ids).toContain(mine.id);
      expect(ids).not.toContain(theirs.id);
      expect(tasks.every((task) => task.user_id === owner.id)).toBe(true);
    });

    it('should filter by state when ?state=paused is given', async () => {
      const paused = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      const active = await api.create(owner, { search_query: uniqueQuery() });
      const response = await testApp.http
        .get('/api/v1/tasks?state=paused')
        .set('Authorization', owner.auth)
        .expect(200);
      const tasks = response.body as TaskBody[];
      expect(tasks.length).toBeGreaterThan(0);
      expect(tasks.every((task) => task.state === 'paused')).toBe(true);
      expect(tasks.map((task) => task.id)).toContain(paused.id);
      expect(tasks.map((task) => task.id)).not.toContain(active.id);
    });

    it('should answer 422 enum with loc ["query","state"] when the state filter is unknown', async () => {
      const response = await testApp.http
        .get('/api/v1/tasks?state=bogus')
        .set('Authorization', owner.auth);
      expectValidationError(response, [{ type: 'enum', loc: ['query', 'state'] }]);
    });
  });

  describe('GET /api/v1/tasks/{id}', () => {
    it('should give the owner the full task with the last execution embedded after a run', async () => {
      const query = uniqueQuery('embedded');
      provider.script(
        query,
        checkReply({
          answer: 'embedded answer',
          sources: [{ uri: 'https://e.test/1', title: 'E' }],
        }),
      );
      const task = await api.create(owner, { search_query: query, state: 'paused' });
      const execution = await api.execute(owner, task.id);
      await api.waitForExecution(owner, task.id, execution.id);

      const fetched = await api.get(owner, task.id);
      expect(fetched.user_id).toBe(owner.id);
      expect(fetched.last_execution_id).toBe(execution.id);
      expect(fetched.last_execution).toMatchObject<Partial<ExecutionBody>>({
        id: execution.id,
        task_id: task.id,
        status: 'success',
        answer: 'embedded answer',
        grounding_sources: [{ uri: 'https://e.test/1', title: 'E' }],
      });
    });

    it("should answer 404 'Task not found' when a non-owner asks for a private task", async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      expectDetail(
        await testApp.http.get(`/api/v1/tasks/${task.id}`).set('Authorization', stranger.auth),
        404,
        'Task not found',
      );
      expectDetail(await testApp.http.get(`/api/v1/tasks/${task.id}`), 404, 'Task not found');
    });

    it("should answer 404 'Task not found' when the id is unknown", async () => {
      expectDetail(
        await testApp.http
          .get('/api/v1/tasks/00000000-0000-4000-8000-000000000000')
          .set('Authorization', owner.auth),
        404,
        'Task not found',
      );
    });

    it('should answer 422 with loc ["path","id"] when the id is not a UUID', async () => {
      const response = await testApp.http
        .get('/api/v1/tasks/not-a-uuid')
        .set('Authorization', owner.auth);
      expectValidationError(response, [{ type: 'uuid_parsing', loc: ['path', 'id'] }]);
    });

    it('should give non-owners and anonymous callers a scrubbed view when the task is public', async () => {
      const task = await api.create(owner, {
        search_query: uniqueQuery(),
        state: 'paused',
        notifications: [{ type: 'email', address: 'private@example.com' }, webhook],
      });
      await testApp.db.query('UPDATE tasks SET is_public = true WHERE id = $1', [task.id]);

      const asStranger = await testApp.http
        .get(`/api/v1/tasks/${task.id}`)
        .set('Authorization', stranger.auth);
      const anonymous = await testApp.http.get(`/api/v1/tasks/${task.id}`);
      for (const response of [asStranger, anonymous]) {
        expect(response.status).toBe(200);
        const body = response.body as TaskBody;
        expect(body).not.toHaveProperty('user_id');
        expect(body).toMatchObject({
          id: task.id,
          search_query: task.search_query,
          is_public: true,
          notifications: [],
          notification_email: null,
          webhook_url: null,
        });
        expect(JSON.stringify(body)).not.toContain('private@example.com');
        expect(JSON.stringify(body)).not.toContain('whsec_');
      }
      const asOwner = await api.get(owner, task.id);
      expect(asOwner.user_id).toBe(owner.id);
      expect(asOwner.notification_email).toBe('private@example.com');
    });
  });

  describe('DELETE /api/v1/tasks/{id}', () => {
    it('should answer 204 with no body, forget the task and remove its queue job', async () => {
      const task = await api.create(owner, { search_query: uniqueQuery() });
      await api.waitForIdle(task.id);
      const { check_job_id: jobId } = await api.row(task.id);
      expect(jobId).toMatch(UUID);
      expect(await api.jobExists(jobId!)).toBe(true);

      const response = await testApp.http
        .delete(`/api/v1/tasks/${task.id}`)
        .set('Authorization', owner.auth);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');

      expectDetail(
        await testApp.http.get(`/api/v1/tasks/${task.id}`).set('Authorization', owner.auth),
        404,
        'Task not found',
      );
      expect(await api.jobExists(jobId!)).toBe(false);
      expect(await api.liveJobs(task.id)).toEqual([]);
    });

    it('should answer 404 and keep the task when another user deletes it', async () => {
      const task = await api.create(owner, { search_query: uniqueQuery(), state: 'paused' });
      expectDetail(
        await testApp.http.delete(`/api/v1/tasks/${task.id}`).set('Authorization', stranger.auth),
        404,
        'Task not found',
      );
      await api.get(owner, task.id);
    });
  });
});
