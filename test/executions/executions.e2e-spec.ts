import { MetricsService } from '../../src/metrics/metrics.service';
import { expectDetail, expectValidationError } from '../support/errors';
import type { TestUser } from '../support/factory';
import { checkReply, errorReply, textReply } from '../support/gemini-stand-in';
import { parseExposition, sampleValue } from '../support/prometheus-text';
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
} from '../tasks/task-api';

const ALREADY_RUNNING = 'Task is already running or pending. Use force=true to override.';

describe('Executions: run now, force, history and provider failures', () => {
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

  /** Paused, so no scheduled check competes with the runs a test asks for. */
  function pausedTask(query = uniqueQuery()): Promise<TaskBody> {
    return api.create(owner, { search_query: query, state: 'paused' });
  }

  /** Checks that ended as cancelled on this app, as GET /metrics counts them. */
  async function cancelledChecks(): Promise<number> {
    const families = parseExposition(await testApp.app.get(MetricsService).scrape());
    return sampleValue(families, 'monitor_checks_total', { status: 'cancelled' }) ?? 0;
  }

  function execute(id: string, user: TestUser = owner, query = '') {
    return testApp.http.post(`/api/v1/tasks/${id}/execute${query}`).set('Authorization', user.auth);
  }

  describe('POST /api/v1/tasks/{id}/execute', () => {
    it('should answer 200 with a pending Execution and finish it with the provider result', async () => {
      const query = uniqueQuery('execute');
      provider.script(
        query,
        checkReply({
          conditionMet: true,
          answer: 'Version 2.0 shipped on 1 March.',
          reasoning: 'The release notes are dated 1 March.',
          sources: [
            { uri: 'https://news.example/release', title: 'Release notes' },
            { uri: 'https://blog.example/post', title: 'Blog post' },
          ],
        }),
      );
      const task = await pausedTask(query);

      const response = await execute(task.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        task_id: task.id,
        status: 'pending',
        started_at: expect.stringMatching(ISO_TIMESTAMP),
        completed_at: null,
        result: null,
        error_message: null,
        notification: null,
        grounding_sources: null,
        condition_met: null,
        claimed_met: null,
        evidence: null,
        values: null,
        changes: null,
        answer: null,
        reasoning: null,
        usage: null,
        page_results: null,
        verdict_execution_id: null,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
      });

      const pending = response.body as ExecutionBody;
      const done = await api.waitForExecution(owner, task.id, pending.id);
      expect(done).toMatchObject({
        id: pending.id,
        status: 'success',
        completed_at: expect.stringMatching(ISO_TIMESTAMP),
        error_message: null,
        condition_met: true,
        answer: 'Version 2.0 shipped on 1 March.',
        reasoning: 'The release notes are dated 1 March.',
        grounding_sources: [
          { uri: 'https://news.example/release', title: 'Release notes' },
          { uri: 'https://blog.example/post', title: 'Blog post' },
        ],
      });
      expect(done.result).not.toBeNull();
      expect(done.notification).not.toBeNull();
      expect(Date.parse(done.completed_at!)).toBeGreaterThanOrEqual(Date.parse(done.started_at));
      expect(provider.requestsFor(query)).toHaveLength(1);
    });

    it('should answer 409 while a run is pending or running when force is not given', async () => {
      const query = uniqueQuery('busy');
      provider.script(query, { delayMs: 2000, then: checkReply() });
      const task = await pausedTask(query);
      const first = (await execute(task.id).expect(200)).body as ExecutionBody;

      expectDetail(await execute(task.id), 409, ALREADY_RUNNING);
      await waitFor(async () => provider.requestsFor(query).length === 1, {
        what: 'the first run to reach the provider',
      });
      expectDetail(await execute(task.id), 409, ALREADY_RUNNING);
      const history = await api.executions(owner, task.id);
      expect(history.map((execution) => [execution.id, execution.status])).toEqual([
        [first.id, 'running'],
      ]);
    });

    it('should cancel the run in flight and start a new one when ?force=true is given', async () => {
      const query = uniqueQuery('force-query');
      provider.script(
        query,
        { delayMs: 2000, then: checkReply({ answer: 'stale answer' }) },
        checkReply({ answer: 'forced answer' }),
      );
      const task = await pausedTask(query);
      const cancelledBefore = await cancelledChecks();
      const first = (await execute(task.id).expect(200)).body as ExecutionBody;
      await waitFor(async () => provider.requestsFor(query).length === 1, {
        what: 'the first run to reach the provider',
      });

      const response = await execute(task.id, owner, '?force=true');
      expect(response.status).toBe(200);
      const second = response.body as ExecutionBody;
      expect(second).toMatchObject({ status: 'pending', task_id: task.id });
      expect(second.id).not.toBe(first.id);

      const cancelled = await api.waitForExecution(owner, task.id, first.id, ['cancelled'], 1000);
      expect(cancelled.completed_at).toMatch(ISO_TIMESTAMP);
      const done = await api.waitForExecution(owner, task.id, second.id);
      expect(done).toMatchObject({ status: 'success', answer: 'forced answer' });

      // The slow first reply arrives after the cancel and its check ends as cancelled: it must
      // not overwrite anything.
      await waitFor(async () => (await cancelledChecks()) > cancelledBefore, {
        what: 'the first check to end as cancelled',
      });
      const history = await api.executions(owner, task.id);
      expect(history.find((execution) => execution.id === first.id)).toMatchObject({
        status: 'cancelled',
        answer: null,
      });
      expect((await api.get(owner, task.id)).last_execution_id).toBe(second.id);
    });

    it('should accept force in the JSON body when {"force": true} is sent', async () => {
      const query = uniqueQuery('force-body');
      provider.script(query, { delayMs: 2000, then: checkReply() }, checkReply({ answer: 'body' }));
      const task = await pausedTask(query);
      const first = (await execute(task.id).expect(200)).body as ExecutionBody;
      await waitFor(async () => provider.requestsFor(query).length === 1, {
        what: 'the first run to reach the provider',
      });

      const response = await testApp.http
        .post(`/api/v1/tasks/${task.id}/execute`)
        .set('Authorization', owner.auth)
        .send({ force: true });
      expect(response.status).toBe(200);
      const second = response.body as ExecutionBody;
      expect(second.id).not.toBe(first.id);
      await api.waitForExecution(owner, task.id, first.id, ['cancelled'], 1000);
      expect(await api.waitForExecution(owner, task.id, second.id)).toMatchObject({
        status: 'success',
        answer: 'body',
      });
    });

    it('should start a run normally when force is given and nothing is in flight', async () => {
      const task = await pausedTask();
      const response = await execute(task.id, owner, '?force=true');
      expect(response.status).toBe(200);
      const run = response.body as ExecutionBody;
      expect(run.status).toBe('pending');
      expect((await api.waitForExecution(owner, task.id, run.id)).status).toBe('success');
    });

    it('should answer one 200 and 409 to the others when executes of one task race, never 500', async () => {
      const query = uniqueQuery('race');
      provider.script(query, { delayMs: 1000, then: checkReply() });
      const paused = await pausedTask(query);
      const statuses = (await Promise.all(Array.from({ length: 8 }, () => execute(paused.id)))).map(
        (r) => r.status,
      );
      expect(statuses.sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    });

    it('should answer 409 when another writer inserts the run in flight while the execute inserts its own', async () => {
      const task = await pausedTask();
      // An in-flight execution inserted, not yet committed, by a writer that does not hold the
      // task's row lock (foreign-key checks off, so not even their key-share lock): the execute's
      // own insert then meets the in-flight unique index.
      const claim = await testApp.db.connect();
      try {
        await claim.query('BEGIN');
        await claim.query("SET LOCAL session_replication_role = 'replica'");
        await claim.query(
          `INSERT INTO executions (task_id, status, trigger, job_id, attempts) VALUES ($1, 'running', 'scheduled', gen_random_uuid(), 1)`,
          [task.id],
        );
        const racing = execute(task.id).then((response) => response); // sends the request now
        await waitFor(
          async () => {
            const { rows } = await testApp.db.query(
              `SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
                 AND wait_event_type = 'Lock' AND query ILIKE 'insert into%executions%'`,
            );
            return rows.length > 0;
          },
          { what: 'the execute to wait on the in-flight index', intervalMs: 20 },
        );
        await claim.query('COMMIT');
        expectDetail(await racing, 409, ALREADY_RUNNING);
      } finally {
        claim.release();
      }
    });

    it("should answer 404 'Task not found' when a non-owner runs a private task", async () => {
      const task = await pausedTask();
      expectDetail(await execute(task.id, stranger), 404, 'Task not found');
      expect(await api.executions(owner, task.id)).toEqual([]);
    });

    it('should answer 422 with loc ["path","id"] when the id is not a UUID', async () => {
      expectValidationError(
        await testApp.http
          .post('/api/v1/tasks/not-a-uuid/execute')
          .set('Authorization', owner.auth),
        [{ type: 'uuid_parsing', loc: ['path', 'id'] }],
      );
    });
  });

  describe('GET /api/v1/tasks/{id}/executions', () => {
    let task: TaskBody;
    let runs: ExecutionBody[];

    beforeAll(async () => {
      const query = uniqueQuery('history');
      provider.script(
        query,
        checkReply({ answer: 'run 1' }),
        checkReply({ answer: 'run 2' }),
        textReply('no json here'),
      );
      task = await pausedTask(query);
      runs = [];
      for (let index = 0; index < 3; index++) {
        const run = await api.execute(owner, task.id);
        runs.push(await api.waitForExecution(owner, task.id, run.id));
      }
    });

    it('should return a bare array, newest first, when no paging is given', async () => {
      const response = await testApp.http
        .get(`/api/v1/tasks/${task.id}/executions`)
        .set('Authorization', owner.auth)
        .expect(200);
      expect(Array.isArray(response.body)).toBe(true);
      expect((response.body as ExecutionBody[]).map((execution) => execution.id)).toEqual(
        runs.map((run) => run.id).reverse(),
      );
    });

    it('should page with limit and offset when they are given', async () => {
      const ids = runs.map((run) => run.id).reverse();
      const firstPage = await api.executions(owner, task.id, '?limit=2');
      expect(firstPage.map((execution) => execution.id)).toEqual(ids.slice(0, 2));
      const middle = await api.executions(owner, task.id, '?limit=1&offset=1');
      expect(middle.map((execution) => execution.id)).toEqual([ids[1]]);
      expect(await api.executions(owner, task.id, '?offset=3')).toEqual([]);
    });

    it('should filter by status when ?status= is given', async () => {
      const succeeded = await api.executions(owner, task.id, '?status=success');
      expect(succeeded.map((execution) => execution.id)).toEqual([runs[1].id, runs[0].id]);
      const failed = await api.executions(owner, task.id, '?status=failed');
      expect(failed.map((execution) => execution.id)).toEqual([runs[2].id]);
    });

    it.each([
      ['201', 'less_than_equal'],
      ['0', 'greater_than_equal'],
    ])('should answer 422 when limit is %s', async (limit, type) => {
      const response = await testApp.http
        .get(`/api/v1/tasks/${task.id}/executions?limit=${limit}`)
        .set('Authorization', owner.auth);
      expectValidationError(response, [{ type, loc: ['query', 'limit'] }]);
    });

    it("should answer 404 'Task not found' when a non-owner lists a private task's runs", async () => {
      expectDetail(
        await testApp.http
          .get(`/api/v1/tasks/${task.id}/executions`)
          .set('Authorization', stranger.auth),
        404,
        'Task not found',
      );
      expectDetail(
        await testApp.http.get(`/api/v1/tasks/${task.id}/executions`),
        404,
        'Task not found',
      );
    });
  });

  describe('GET /api/v1/tasks/{id}/executions of a public task', () => {
    it('should show the history to anyone without error details when the task is public', async () => {
      const query = uniqueQuery('public-history');
      provider.script(query, textReply('no json here'));
      const task = await pausedTask(query);
      const run = await api.execute(owner, task.id);
      const failed = await api.waitForExecution(owner, task.id, run.id);
      expect(failed.error_message).not.toBeNull();
      await testApp.db.query('UPDATE tasks SET is_public = true WHERE id = $1', [task.id]);

      const asStranger = await api.executions(stranger, task.id);
      const anonymous = await testApp.http.get(`/api/v1/tasks/${task.id}/executions`).expect(200);
      for (const history of [asStranger, anonymous.body as ExecutionBody[]]) {
        expect(history).toMatchObject([
          { id: run.id, status: 'failed', error_message: null, notification: null },
        ]);
      }
      const embedded = await testApp.http.get(`/api/v1/tasks/${task.id}`).expect(200);
      expect((embedded.body as TaskBody).last_execution).toMatchObject({
        id: run.id,
        error_message: null,
        notification: null,
      });
    });
  });

  describe('provider failures', () => {
    async function runOnce(query: string): Promise<ExecutionBody> {
      const task = await pausedTask(query);
      const run = await api.execute(owner, task.id);
      return api.waitForExecution(owner, task.id, run.id);
    }

    it('should fail the execution with a clear error_message when the reply cannot be parsed', async () => {
      const query = uniqueQuery('garbage');
      provider.script(query, textReply('no json here'));
      const execution = await runOnce(query);
      expect(execution).toMatchObject({
        status: 'failed',
        error_message: expect.stringMatching(/^Could not parse the model's reply/),
        condition_met: null,
      });
      expect(execution.completed_at).toMatch(ISO_TIMESTAMP);
      expect(execution.result).not.toBeNull();
    });

    it('should fail the execution with the API message when the provider answers 400', async () => {
      const query = uniqueQuery('bad-request');
      provider.script(query, errorReply(400, 'Request contains an invalid argument.'));
      const execution = await runOnce(query);
      expect(execution).toMatchObject({
        status: 'failed',
        error_message: expect.stringMatching(/400.*Request contains an invalid argument\./),
      });
      // A 400 is not worth retrying.
      expect(provider.requestsFor(query)).toHaveLength(1);
    });

    it('should retry and succeed when the provider answers 503 once', async () => {
      const query = uniqueQuery('overloaded');
      provider.script(query, errorReply(503), checkReply({ answer: 'after the retry' }));
      const execution = await runOnce(query);
      expect(execution).toMatchObject({ status: 'success', answer: 'after the retry' });
      expect(provider.requestsFor(query)).toHaveLength(2);
    });

    it('should store the result without NUL or lone surrogates when the reply holds them', async () => {
      const query = uniqueQuery('nul');
      provider.script(
        query,
        checkReply({
          conditionMet: true,
          answer: 'Released\u0000 today \ud800',
          reasoning: 'The page\u0000 says so',
          currentState: { 'version\u0000': 'v2\udfff', notes: ['a\u0000b'] },
        }),
        checkReply({ answer: 'second run' }),
      );
      const task = await pausedTask(query);
      const first = await api.execute(owner, task.id);
      const done = await api.waitForExecution(owner, task.id, first.id);
      expect(done).toMatchObject({
        status: 'success',
        answer: 'Released today ',
        reasoning: 'The page says so',
      });
      expect(done.result).toMatchObject({ current_state: { version: 'v2', notes: ['ab'] } });

      // The task is not stuck: the next run goes through.
      const second = await api.execute(owner, task.id);
      expect(await api.waitForExecution(owner, task.id, second.id)).toMatchObject({
        status: 'success',
        answer: 'second run',
      });
    });

    it('should end a running execution whose job is gone when its worker is alive', async () => {
      const task = await pausedTask();
      const { rows } = await testApp.db.query<{ id: string }>(
        `INSERT INTO executions (task_id, status, trigger, job_id, attempts, worker_id, started_at)
         SELECT $1, 'running', 'manual', gen_random_uuid(), 1, w.id, now()
         FROM worker_instances w ORDER BY w.heartbeat_at DESC LIMIT 1
         RETURNING id`,
        [task.id],
      );
      expect(rows).toHaveLength(1);
      const ended = await api.waitForExecution(owner, task.id, rows[0].id, ['failed'], 20_000);
      expect(ended.error_message).toBe('The check was interrupted and could not be completed');

      const next = await api.execute(owner, task.id);
      expect(await api.waitForExecution(owner, task.id, next.id)).toMatchObject({
        status: 'success',
      });
    });
  });
});
