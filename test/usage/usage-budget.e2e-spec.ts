import { StaleExecutionSweeper } from '../../src/executions/checks/stale-execution.sweeper';
import { expectDetail, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import { ProviderScript, ROOMY_RATE_LIMITS, TaskApi, uniqueQuery } from '../tasks/task-api';

jest.setTimeout(30_000);

/** Each check the stand-in answers costs 0.03611 USD: two of them pass this budget. */
const BUDGET = '0.05';
const REACHED = 'Monthly budget of 0.05 USD reached';
/** Past the budget a new or resumed task's first check waits this long (SCHEDULER_MIN_INTERVAL). */
const MIN_INTERVAL_MS = 1000;

function startOfNextMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

describe('Usage and the monthly budget (USER_MONTHLY_BUDGET_USD)', () => {
  let gemini: GeminiStandIn;
  let testApp: TestApp;
  let api: TaskApi;
  let factory: Factory;
  let admin: TestUser;
  let script: ProviderScript;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    script = new ProviderScript(gemini);
    testApp = await startTestApp({
      search: gemini,
      env: {
        ...ROOMY_RATE_LIMITS,
        USER_MONTHLY_BUDGET_USD: BUDGET,
        SCHEDULER_MIN_INTERVAL: `${MIN_INTERVAL_MS / 1000}s`,
      },
    });
    api = new TaskApi(testApp);
    factory = new Factory(testApp);
    admin = await factory.user({ admin: true });
  });

  afterAll(async () => {
    await testApp.close();
    await gemini.stop();
  });

  async function spendTwoChecks(user: TestUser): Promise<string> {
    const task = await api.create(user, { search_query: uniqueQuery('spend'), state: 'paused' });
    for (let run = 0; run < 2; run++) {
      const execution = await api.execute(user, task.id);
      expect((await api.waitForExecution(user, task.id, execution.id)).status).toBe('success');
    }
    return task.id;
  }

  it('should answer 429 on execute, suggest and preview once the month reached the budget', async () => {
    const user = await factory.user();
    const taskId = await spendTwoChecks(user);

    const usage = await testApp.http
      .get('/api/v1/usage')
      .set('Authorization', user.auth)
      .expect(200);
    expect(usage.body).toMatchObject({
      executions: 2,
      llm_calls: 2,
      cost_usd: 0.07222,
      budget_usd: 0.05,
    });

    const calls = gemini.requestCount;
    expectDetail(
      await testApp.http.post(`/api/v1/tasks/${taskId}/execute`).set('Authorization', user.auth),
      429,
      REACHED,
    );
    expectDetail(
      await testApp.http
        .post('/api/v1/tasks/suggest')
        .set('Authorization', user.auth)
        .send({ prompt: 'watch prices' }),
      429,
      REACHED,
    );
    expectDetail(
      await testApp.http
        .post('/api/v1/tasks/preview')
        .set('Authorization', user.auth)
        .send({ search_query: uniqueQuery() }),
      429,
      REACHED,
    );
    expect(gemini.requestCount).toBe(calls);

    // Another user's budget is their own.
    const other = await factory.user();
    const otherTask = await api.create(other, {
      search_query: uniqueQuery('other'),
      state: 'paused',
    });
    await api.execute(other, otherTask.id);
  });

  it("should defer a create's and a resume's first check and refuse run_immediately with the budget's detail once the budget is reached", async () => {
    const user = await factory.user();
    const pausedId = await spendTwoChecks(user);
    const query = uniqueQuery('created past budget');

    const from = Date.now();
    const created = await api.create(user, { search_query: query, run_immediately: true });
    const to = Date.now();
    expect(created).toMatchObject({ state: 'active', immediate_execution_error: REACHED });
    const due = Date.parse(created.next_run!);
    expect(due).toBeGreaterThanOrEqual(from + MIN_INTERVAL_MS);
    expect(due).toBeLessThanOrEqual(to + MIN_INTERVAL_MS);
    const { rows } = await testApp.db.query(
      "SELECT 1 FROM executions WHERE task_id = $1 AND trigger = 'manual'",
      [created.id],
    );
    expect(rows).toEqual([]);

    const resumedFrom = Date.now();
    const resumed = await testApp.http
      .put(`/api/v1/tasks/${pausedId}`)
      .set('Authorization', user.auth)
      .send({ state: 'active' })
      .expect(200);
    expect(Date.parse((resumed.body as { next_run: string }).next_run)).toBeGreaterThanOrEqual(
      resumedFrom + MIN_INTERVAL_MS,
    );
    expect(script.requestsFor(query)).toHaveLength(0);
  });

  it('should fail a due scheduled check without calling the provider and wait for next month when the budget is reached', async () => {
    const user = await factory.user();
    await spendTwoChecks(user);
    const query = uniqueQuery('scheduled past budget');

    const task = await api.create(user, { search_query: query });
    await api.waitForIdle(task.id);

    const [execution] = await api.executions(user, task.id);
    expect(execution).toMatchObject({ status: 'failed', error_message: REACHED, usage: null });
    expect(gemini.requests.filter((request) => request.promptText.includes(query))).toHaveLength(0);
    const after = await api.get(user, task.id);
    expect(after).toMatchObject({ state: 'active', next_run: startOfNextMonth() });
    const jobs = await api.liveJobs(task.id);
    expect(jobs.map((job) => job.start_after.toISOString())).toEqual([startOfNextMonth()]);

    // The sweeper sees a scheduled task, not a stuck one.
    await testApp.app.get(StaleExecutionSweeper).sweep();
    expect(await api.executions(user, task.id)).toHaveLength(1);
    expect((await api.get(user, task.id)).next_run).toBe(startOfNextMonth());
  });

  it('should list users by cost for the month and page them when an admin asks', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const response = await testApp.http
      .get(`/admin/usage?month=${month}&limit=1`)
      .set('Authorization', admin.auth)
      .expect(200);
    const body = response.body as { users: Array<Record<string, unknown>>; total: number };
    expect(body.total).toBeGreaterThanOrEqual(3);
    expect(body.users).toHaveLength(1);
    expect(body.users[0]).toEqual({
      user_id: expect.any(String),
      email: expect.any(String),
      executions: 2,
      llm_calls: 2,
      input_tokens: 2400,
      output_tokens: 600,
      search_calls: 2,
      cost_usd: 0.07222,
    });
    const past = await testApp.http
      .get('/admin/usage?month=2001-01')
      .set('Authorization', admin.auth)
      .expect(200);
    expect(past.body).toEqual({ users: [], total: 0 });
  });

  it('should answer 422 in the array form when the month is not YYYY-MM', async () => {
    const user = await factory.user();
    expectValidationError(
      await testApp.http.get('/api/v1/usage?month=2030-13').set('Authorization', user.auth),
      [{ type: 'string_pattern_mismatch', loc: ['query', 'month'] }],
    );
    expectValidationError(
      await testApp.http.get('/admin/usage?month=May').set('Authorization', admin.auth),
      [{ type: 'string_pattern_mismatch', loc: ['query', 'month'] }],
    );
    expectValidationError(
      await testApp.http.get('/admin/usage?limit=201').set('Authorization', admin.auth),
      [{ type: 'less_than_equal', loc: ['query', 'limit'] }],
    );
  });

  it('should answer 403 when a non-admin lists usage', async () => {
    const user = await factory.user();
    expectDetail(
      await testApp.http.get('/admin/usage').set('Authorization', user.auth),
      403,
      'Admin access required',
    );
  });

  // Last: their users' costs tie with the ones the admin listing above expects first.
  async function costOf(user: TestUser): Promise<number> {
    const usage = await testApp.http.get('/api/v1/usage').set('Authorization', user.auth);
    return (usage.body as { cost_usd: number }).cost_usd;
  }

  /** One check spent (0.03611 USD): under the budget, one more call passes it. */
  async function userAtTheEdge(): Promise<TestUser> {
    const user = await factory.user();
    const task = await api.create(user, { search_query: uniqueQuery('edge'), state: 'paused' });
    const execution = await api.execute(user, task.id);
    expect((await api.waitForExecution(user, task.id, execution.id)).status).toBe('success');
    return user;
  }

  it('should let concurrent previews at the limit overshoot the budget by one call at most', async () => {
    const user = await userAtTheEdge();
    const query = uniqueQuery('concurrent previews');
    // Each call takes a while, so all of them are under way together.
    script.script(query, { delayMs: 400 });
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        testApp.http
          .post('/api/v1/tasks/preview')
          .set('Authorization', user.auth)
          .send({ search_query: query }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const response of responses.filter((candidate) => candidate.status !== 200))
      expectDetail(response, 429, REACHED);
    expect(script.requestsFor(query)).toHaveLength(1);
    expect(await costOf(user)).toBeCloseTo(2 * 0.03611, 6);
  });

  it('should let concurrent executes at the limit call the provider once, the other runs failing on the budget', async () => {
    const user = await userAtTheEdge();
    const queries = Array.from({ length: 6 }, (_, index) => uniqueQuery(`concurrent run ${index}`));
    const tasks = await Promise.all(
      queries.map((query) => api.create(user, { search_query: query, state: 'paused' })),
    );
    for (const query of queries) script.script(query, { delayMs: 300 });
    const runs = await Promise.all(tasks.map((task) => api.execute(user, task.id)));
    const ended = await Promise.all(
      runs.map((run, index) => api.waitForExecution(user, tasks[index].id, run.id)),
    );
    expect(ended.filter((execution) => execution.status === 'success')).toHaveLength(1);
    expect(
      ended.filter(
        (execution) => execution.status === 'failed' && execution.error_message === REACHED,
      ),
    ).toHaveLength(5);
    expect(queries.flatMap((query) => script.requestsFor(query))).toHaveLength(1);
    expect(await costOf(user)).toBeCloseTo(2 * 0.03611, 6);
  });
});
