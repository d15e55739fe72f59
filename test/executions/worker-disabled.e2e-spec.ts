import { Factory, type TestUser } from '../support/factory';
import { checkReply, GeminiStandIn } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  ProviderScript,
  ROOMY_RATE_LIMITS,
  TaskApi,
  uniqueQuery,
  type ExecutionBody,
  type TaskBody,
} from '../tasks/task-api';

describe('WORKER_ENABLED=false (an API-only instance)', () => {
  let gemini: GeminiStandIn;
  let provider: ProviderScript;
  let apiOnly: TestApp;
  let api: TaskApi;
  let user: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    provider = new ProviderScript(gemini);
    apiOnly = await startTestApp({
      gemini,
      env: { ...ROOMY_RATE_LIMITS, WORKER_ENABLED: 'false' },
    });
    api = new TaskApi(apiOnly);
    user = await new Factory(apiOnly).user();
  });

  afterAll(async () => {
    await apiOnly.close();
    await gemini.stop();
  });

  /** An active task (due at once) and a manual run of a paused one, both made on the API-only app. */
  async function queueWork(): Promise<{ active: TaskBody; paused: TaskBody; run: ExecutionBody }> {
    const active = await api.create(user, { search_query: uniqueQuery('api-only-active') });
    const paused = await api.create(user, {
      search_query: uniqueQuery('api-only-manual'),
      state: 'paused',
    });
    provider.script(active.search_query, checkReply({ answer: 'scheduled by the worker app' }));
    provider.script(paused.search_query, checkReply({ answer: 'run by the worker app' }));
    const run = await api.execute(user, paused.id);
    return { active, paused, run };
  }

  it('should accept tasks and runs but execute nothing when the worker is disabled', async () => {
    const { active, paused, run } = await queueWork();
    expect(active.state).toBe('active');
    expect(active.next_run).not.toBeNull();
    expect(run.status).toBe('pending');

    // Both check jobs are due, and no one takes them: an API-only instance runs no worker.
    const { rows } = await apiOnly.db.query<{ state: string }>(
      `SELECT state FROM pgboss.job WHERE name = 'task-check'
         AND data ->> 'taskId' = ANY($1) AND start_after <= now()`,
      [[active.id, paused.id]],
    );
    expect(rows).toEqual([{ state: 'created' }, { state: 'created' }]);
    expect(await api.executions(user, paused.id)).toMatchObject([
      { id: run.id, status: 'pending' },
    ]);
    expect(await api.executions(user, active.id)).toEqual([]);
    expect(provider.requestsFor(active.search_query)).toEqual([]);
    expect(provider.requestsFor(paused.search_query)).toEqual([]);
  });

  it('should run the queued work when a worker instance starts on the same database', async () => {
    const { active, paused, run } = await queueWork();
    const worker = await startTestApp({
      databaseUrl: apiOnly.databaseUrl,
      jwks: apiOnly.jwks,
      gemini,
      env: ROOMY_RATE_LIMITS,
    });
    try {
      const manual = await api.waitForExecution(user, paused.id, run.id);
      expect(manual).toMatchObject({ status: 'success', answer: 'run by the worker app' });
      await api.waitForIdle(active.id);
      const scheduled = await api.get(user, active.id);
      expect(scheduled.last_execution).toMatchObject({
        status: 'success',
        answer: 'scheduled by the worker app',
      });
    } finally {
      await worker.close();
    }
  });
});
