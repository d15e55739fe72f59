import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { OpenAiStandIn } from '../support/openai-stand-in';
import { PerplexityStandIn } from '../support/perplexity-stand-in';
import { searchResultsReply, SearxngStandIn } from '../support/searxng-stand-in';
import {
  createTestDatabase,
  dropTestDatabase,
  startTestApp,
  type TestApp,
} from '../support/test-app';
import {
  ProviderScript,
  ROOMY_RATE_LIMITS,
  TaskApi,
  uniqueQuery,
  type ExecutionBody,
} from '../tasks/task-api';

jest.setTimeout(30_000);

async function runOnce(api: TaskApi, user: TestUser, taskId: string): Promise<ExecutionBody> {
  const run = await api.execute(user, taskId);
  return api.waitForExecution(user, taskId, run.id);
}

describe('Perplexity: a 200 that reports a failed run', () => {
  let standIn: PerplexityStandIn;
  let testApp: TestApp;

  beforeAll(async () => {
    standIn = await new PerplexityStandIn().start();
    testApp = await startTestApp({ search: standIn, env: ROOMY_RATE_LIMITS });
  });

  afterAll(async () => {
    await testApp.close();
    await standIn.stop();
  });

  it('should fail the execution with the run error and not retry when status is failed', async () => {
    const api = new TaskApi(testApp);
    const user = await new Factory(testApp).user();
    const query = uniqueQuery('failed run');
    new ProviderScript(standIn).script(query, standIn.failedRunReply('Search backend unavailable'));
    const task = await api.create(user, { search_query: query, state: 'paused' });
    const execution = await runOnce(api, user, task.id);
    expect(execution).toMatchObject({
      status: 'failed',
      error_message: 'Perplexity API reported the run as failed: Search backend unavailable',
    });
    expect(standIn.requests.filter((request) => request.promptText.includes(query))).toHaveLength(
      1,
    );
  });
});

describe('SearXNG: empty results while engines are unresponsive', () => {
  let standIn: SearxngStandIn;
  let testApp: TestApp;

  beforeAll(async () => {
    standIn = await new SearxngStandIn().start();
    testApp = await startTestApp({ search: standIn, env: ROOMY_RATE_LIMITS });
  });

  afterAll(async () => {
    await testApp.close();
    await standIn.stop();
  });

  it('should retry the search as a transient failure and then judge the results', async () => {
    const api = new TaskApi(testApp);
    const user = await new Factory(testApp).user();
    const task = await api.create(user, {
      search_query: uniqueQuery('engines down'),
      state: 'paused',
    });
    standIn.reset().enqueue(
      searchResultsReply(
        [],
        [
          ['google', 'timeout'],
          ['duckduckgo', 'CAPTCHA'],
        ],
      ),
      searchResultsReply(),
    );
    const execution = await runOnce(api, user, task.id);
    expect(execution).toMatchObject({ status: 'success', usage: { search_calls: 1 } });
    expect(standIn.requests.map((request) => request.kind)).toEqual(['search', 'search', 'check']);
    expect(standIn.requests[0].path).toBe('/search');
  });

  it('should leave the check to the queue to retry, naming the engines, when they stay unresponsive', async () => {
    const api = new TaskApi(testApp);
    const user = await new Factory(testApp).user();
    const task = await api.create(user, {
      search_query: uniqueQuery('engines down'),
      state: 'paused',
    });
    standIn.reset().respondWith(searchResultsReply([], [['google', 'timeout']]));
    const run = await api.execute(user, task.id);
    const execution = await api.waitForExecution(user, task.id, run.id, ['retrying', 'failed']);
    expect(execution).toMatchObject({
      status: 'retrying',
      error_message:
        'SearXNG found no results while its engines were unresponsive (google: timeout) after 4 attempts',
    });
    expect(standIn.requests.every((request) => request.kind === 'search')).toBe(true);
    standIn.reset();
  });
});

describe('Switching provider with a restart', () => {
  let gemini: GeminiStandIn;
  let openai: OpenAiStandIn;
  let databaseUrl: string;

  beforeAll(async () => {
    [gemini, openai] = await Promise.all([
      new GeminiStandIn().start(),
      new OpenAiStandIn().start(),
    ]);
    databaseUrl = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all([gemini.stop(), openai.stop()]);
    await dropTestDatabase(databaseUrl);
  });

  it('should run the same task on the provider SEARCH_PROVIDER names after a restart', async () => {
    const both = { ...gemini.env(), ...openai.env(), ...ROOMY_RATE_LIMITS };
    const first = await startTestApp({ databaseUrl, env: { ...both, SEARCH_PROVIDER: 'gemini' } });
    const user = await new Factory(first).user();
    let api = new TaskApi(first);
    const task = await api.create(user, { search_query: uniqueQuery('switch'), state: 'paused' });
    const before = await runOnce(api, user, task.id);
    expect(before.usage).toMatchObject({ provider: 'gemini' });
    await first.close();

    const second = await startTestApp({ databaseUrl, env: { ...both, SEARCH_PROVIDER: 'openai' } });
    try {
      api = new TaskApi(second);
      const after = await runOnce(api, user, task.id);
      expect(after).toMatchObject({
        status: 'success',
        usage: openai.checkUsage,
        result: { provider: 'openai' },
      });
      expect(
        openai.requests.filter((request) => request.promptText.includes(task.search_query)),
      ).toHaveLength(1);
      expect(
        gemini.requests.filter((request) => request.promptText.includes(task.search_query)),
      ).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
