import { callTool, connectMcp } from '../mcp/mcp-client';
import { expectRateLimited } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import { ROOMY_RATE_LIMITS, TaskApi, uniqueQuery, type TaskBody } from '../tasks/task-api';

/** SCHEDULER_MIN_INTERVAL's default: how long a check past the limits waits. */
const MIN_INTERVAL_MS = 15 * 60_000;

/**
 * Checks the service makes at once (a new or resumed task's first check, `run_immediately`)
 * count as execute's model calls (docs/api.md, "Rate limits"). No worker runs here: what is
 * asserted is when each check is due and which runs are queued.
 */
describe('Model calls made at once count in RATE_LIMIT_LLM_PER_HOUR', () => {
  let gemini: GeminiStandIn;
  let testApp: TestApp;
  let factory: Factory;
  let api: TaskApi;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    testApp = await startTestApp({
      gemini,
      env: {
        ...ROOMY_RATE_LIMITS,
        RATE_LIMIT_LLM_PER_HOUR: '2',
        MAX_ACTIVE_TASKS_PER_USER: '1',
        WORKER_ENABLED: 'false',
      },
    });
    factory = new Factory(testApp);
    api = new TaskApi(testApp);
  });

  afterAll(async () => {
    await testApp.close();
    await gemini.stop();
  });

  async function setState(user: TestUser, id: string, state: string): Promise<TaskBody> {
    const response = await testApp.http
      .put(`/api/v1/tasks/${id}`)
      .set('Authorization', user.auth)
      .send({ state })
      .expect(200);
    return response.body as TaskBody;
  }

  async function create(user: TestUser, body: Record<string, unknown>): Promise<TaskBody> {
    const response = await testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .send({ search_query: uniqueQuery('counted'), ...body })
      .expect(200);
    return response.body as TaskBody;
  }

  /** Runs `request` and answers the task it returns with the time span it was made in. */
  async function timed(
    request: () => Promise<TaskBody>,
  ): Promise<{ task: TaskBody; from: number; to: number }> {
    const from = Date.now();
    const task = await request();
    return { task, from, to: Date.now() };
  }

  /** The task's first check is due `delayMs` after the request, as stored and as queued. */
  async function expectFirstCheckDue(
    { task, from, to }: { task: TaskBody; from: number; to: number },
    delayMs: number,
  ): Promise<void> {
    expect(task.state).toBe('active');
    const due = Date.parse(task.next_run!);
    expect(due).toBeGreaterThanOrEqual(from + delayMs);
    expect(due).toBeLessThanOrEqual(to + delayMs);
    const jobs = await api.liveJobs(task.id);
    expect(jobs.map((job) => job.start_after.getTime())).toEqual([due]);
  }

  it('should count first checks of creates and resumes with execute and defer them past the limit', async () => {
    const user = await factory.user();
    const created = await timed(() => create(user, {}));
    await expectFirstCheckDue(created, 0);
    const { id } = created.task;

    await setState(user, id, 'paused');
    await expectFirstCheckDue(await timed(() => setState(user, id, 'active')), 0);

    // Both calls of the hour are used: each further resume still happens, its check deferred.
    for (let cycle = 0; cycle < 3; cycle++) {
      await setState(user, id, 'paused');
      const resumed = await timed(() => setState(user, id, 'active'));
      await expectFirstCheckDue(resumed, MIN_INTERVAL_MS);
    }
    // The counter is execute's and suggest's too.
    expectRateLimited(
      await testApp.http.post(`/api/v1/tasks/${id}/execute`).set('Authorization', user.auth),
    );
    expectRateLimited(
      await testApp.http
        .post('/api/v1/tasks/suggest')
        .set('Authorization', user.auth)
        .send({ prompt: 'Watch for the next release' }),
    );
  });

  /** A user whose two model calls of the hour went to executes of a paused task. */
  async function userPastTheHour(): Promise<TestUser> {
    const user = await factory.user();
    const paused = await create(user, { state: 'paused' });
    await api.execute(user, paused.id);
    await testApp.http
      .post(`/api/v1/tasks/${paused.id}/execute?force=true`)
      .set('Authorization', user.auth)
      .expect(200);
    return user;
  }

  it('should count a create after execute used the hour and defer its first check', async () => {
    const user = await userPastTheHour();
    await expectFirstCheckDue(await timed(() => create(user, {})), MIN_INTERVAL_MS);
  });

  it('should neither count nor defer the checks of a task with a page_rule, which calls no model', async () => {
    const user = await userPastTheHour();
    const watcher = {
      pages: [{ url: 'http://127.0.0.1:9/changelog' }],
      page_rule: { type: 'contains', text: '2.0' },
    };

    const ruled = await timed(() => create(user, watcher));
    await expectFirstCheckDue(ruled, 0);
    await setState(user, ruled.task.id, 'paused');
    await expectFirstCheckDue(await timed(() => setState(user, ruled.task.id, 'active')), 0);
    const immediate = await create(user, { ...watcher, state: 'paused', run_immediately: true });
    expect(immediate.immediate_execution_error).toBeNull();
    expect(await api.executions(user, immediate.id)).toHaveLength(1);
  });

  it('should answer run_immediately past the limit with the 429 detail and queue no run, over REST and MCP', async () => {
    const user = await factory.user();
    for (let run = 0; run < 2; run++) {
      const queued = await create(user, { state: 'paused', run_immediately: true });
      expect(queued.immediate_execution_error).toBeNull();
      expect(await api.executions(user, queued.id)).toHaveLength(1);
    }

    const refused = await timed(() => create(user, { run_immediately: true }));
    expect(refused.task.immediate_execution_error).toBe('Rate limit exceeded');
    expect(await api.executions(user, refused.task.id)).toEqual([]);
    await expectFirstCheckDue(refused, MIN_INTERVAL_MS);

    const client = await connectMcp(testApp, user.auth);
    try {
      const overMcp = await callTool(client, 'create_task', {
        search_query: uniqueQuery('counted over mcp'),
        state: 'paused',
        run_immediately: true,
      });
      const task = overMcp.structuredContent as TaskBody;
      expect(task.immediate_execution_error).toBe('Rate limit exceeded');
      expect(await api.executions(user, task.id)).toEqual([]);

      await callTool(client, 'pause_task', { id: refused.task.id });
      const resumed = await timed(
        async () =>
          (await callTool(client, 'resume_task', { id: refused.task.id }))
            .structuredContent as TaskBody,
      );
      await expectFirstCheckDue(resumed, MIN_INTERVAL_MS);
    } finally {
      await client.close();
    }
  });

  it('should count nothing for a create that the active task cap refuses', async () => {
    const user = await factory.user();
    const first = await create(user, {});
    for (let attempt = 0; attempt < 3; attempt++) {
      await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .send({ search_query: uniqueQuery('over the cap'), run_immediately: true })
        .expect(409);
    }
    // The first create used one call of two: execute takes the other, and no more fits.
    await api.execute(user, first.id);
    expectRateLimited(
      await testApp.http
        .post(`/api/v1/tasks/${first.id}/execute?force=true`)
        .set('Authorization', user.auth),
    );
  });
});
