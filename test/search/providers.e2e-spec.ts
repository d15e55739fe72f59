import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { OpenAiStandIn } from '../support/openai-stand-in';
import { PerplexityStandIn } from '../support/perplexity-stand-in';
import { SEARCH_RESULTS, SearxngStandIn } from '../support/searxng-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import type { RecordedRequest, WireStandIn } from '../support/wire-stand-in';
import {
  ProviderScript,
  ROOMY_RATE_LIMITS,
  TaskApi,
  uniqueQuery,
  type ExecutionBody,
} from '../tasks/task-api';

// The e2e project's testTimeout is not applied per project by Jest: set it here.
jest.setTimeout(30_000);

type AnyStandIn = WireStandIn<RecordedRequest<object>>;

interface ProviderCase {
  name: string;
  create: () => AnyStandIn;
  /** Search calls a suggestion makes (the SearXNG judge has no search of its own). */
  suggestSearchCalls: number;
  /** The wire call that a check's model request must be. */
  expectModelRequest: (request: RecordedRequest<object>) => void;
}

const CASES: ProviderCase[] = [
  {
    name: 'gemini',
    create: () => new GeminiStandIn(),
    suggestSearchCalls: 1,
    expectModelRequest: (request) => {
      expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(request.body).toMatchObject({ tools: [{ google_search: {} }] });
    },
  },
  {
    name: 'openai',
    create: () => new OpenAiStandIn(),
    suggestSearchCalls: 1,
    expectModelRequest: (request) => {
      expect(request.path).toBe('/v1/responses');
      expect(request.body).toMatchObject({
        model: 'gpt-5-mini',
        input: expect.any(String),
        tools: [{ type: 'web_search' }],
        tool_choice: 'required',
        include: ['web_search_call.action.sources'],
      });
    },
  },
  {
    name: 'perplexity',
    create: () => new PerplexityStandIn(),
    suggestSearchCalls: 1,
    expectModelRequest: (request) => {
      expect(request.path).toBe('/v1/agent');
      expect(request.body).toMatchObject({
        model: 'perplexity/sonar',
        tools: [{ type: 'web_search' }],
        tool_choice: { type: 'web_search' },
      });
    },
  },
  {
    name: 'searxng',
    create: () => new SearxngStandIn(),
    suggestSearchCalls: 0,
    expectModelRequest: (request) => {
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe('Bearer ollama-test-key');
      expect(request.body).toMatchObject({ model: 'qwen3:8b' });
      expect(request.systemText).toContain('source_ids');
      expect(request.promptText).toContain(SEARCH_RESULTS[0].uri);
    },
  },
];

/** Sources every stand-in can return: SearXNG's results are these, so it can cite them. */
const SOURCES = SEARCH_RESULTS.slice(0, 2);

describe.each(CASES)('Search provider $name against its stand-in', (providerCase) => {
  let standIn: AnyStandIn;
  let testApp: TestApp;
  let provider: ProviderScript<RecordedRequest<object>>;
  let api: TaskApi;
  let factory: Factory;
  let user: TestUser;

  beforeAll(async () => {
    standIn = await providerCase.create().start();
    provider = new ProviderScript(standIn);
    testApp = await startTestApp({ search: standIn, env: ROOMY_RATE_LIMITS });
    api = new TaskApi(testApp);
    factory = new Factory(testApp);
    user = await factory.user();
  });

  afterAll(async () => {
    await testApp.close();
    await standIn.stop();
  });

  /** Creates a paused task for `query`, runs it once by hand and waits for the result. */
  async function runOnce(owner: TestUser, query: string): Promise<ExecutionBody> {
    const task = await api.create(owner, { search_query: query, state: 'paused' });
    const run = await api.execute(owner, task.id);
    return api.waitForExecution(owner, task.id, run.id);
  }

  /** Every call the check of `query` made: model calls, and SearXNG's search. */
  const callsFor = (query: string) =>
    standIn.requests.filter((request) => request.promptText.includes(query));

  it('should record a met condition with its answer, sources and usage when the reply is grounded', async () => {
    const query = uniqueQuery('met');
    provider.script(
      query,
      standIn.checkReply({
        conditionMet: true,
        answer: 'Released on 30 April.',
        reasoning: 'The release notes say so.',
        currentState: { version: '2.0' },
        sources: SOURCES,
        fenced: true,
      }),
    );
    const execution = await runOnce(user, query);
    expect(execution).toMatchObject({
      status: 'success',
      condition_met: true,
      answer: 'Released on 30 April.',
      reasoning: 'The release notes say so.',
      grounding_sources: SOURCES,
      usage: standIn.checkUsage,
    });
    expect(execution.result).toMatchObject({
      provider: providerCase.name,
      current_state: { version: '2.0' },
    });
    expect(callsFor(query)).toHaveLength(standIn.callsPerCheck);
    providerCase.expectModelRequest(provider.requestsFor(query)[0]);
  });

  it('should extract the values of the output_schema in the same single call and judge evidence from its sources', async () => {
    const query = uniqueQuery('values');
    provider.script(
      query,
      standIn.checkReply({
        conditionMet: true,
        currentState: { version: '2.0' },
        sources: SOURCES,
        values: { version: '2.0', downloads: '1500', stable: 'true' },
      }),
    );
    const task = await api.create(user, {
      search_query: query,
      state: 'paused',
      output_schema: {
        type: 'object',
        properties: {
          version: { type: 'string' },
          downloads: { type: 'integer' },
          stable: { type: 'boolean' },
        },
        required: ['version'],
      },
      evidence: { min_domains: 1 },
    });
    const run = await api.execute(user, task.id);
    const execution = await api.waitForExecution(user, task.id, run.id);
    expect(execution).toMatchObject({
      status: 'success',
      claimed_met: true,
      condition_met: true,
      values: { version: '2.0', downloads: 1500, stable: true },
      changes: [],
      evidence: { satisfied: true },
    });
    expect((execution.evidence as { distinct_domains: number }).distinct_domains).toBeGreaterThan(
      0,
    );
    expect(callsFor(query)).toHaveLength(standIn.callsPerCheck);
    expect(provider.requestsFor(query)[0].promptText).toContain('"downloads"');
  });

  it('should record an unmet condition when the model says it is not met', async () => {
    const query = uniqueQuery('not met');
    provider.script(query, standIn.checkReply({ conditionMet: false, answer: 'Nothing yet.' }));
    const execution = await runOnce(user, query);
    expect(execution).toMatchObject({
      status: 'success',
      condition_met: false,
      answer: 'Nothing yet.',
    });
    expect(execution.notification).toMatchObject({ notify: false });
  });

  it('should fail the execution with a clear error_message and keep the usage when the reply cannot be parsed', async () => {
    const query = uniqueQuery('unparseable');
    provider.script(query, standIn.textReply('I could not find anything useful.'));
    const execution = await runOnce(user, query);
    expect(execution).toMatchObject({
      status: 'failed',
      error_message: "Could not parse the model's reply: no JSON object found",
      usage: { provider: providerCase.name, input_tokens: 1200, output_tokens: 300 },
    });
    expect(provider.requestsFor(query)).toHaveLength(1);
  });

  it('should fail with the API message and not retry when the API answers 400', async () => {
    const query = uniqueQuery('bad request');
    provider.script(query, standIn.errorReply(400, 'Unsupported parameter: tools'));
    const execution = await runOnce(user, query);
    expect(execution.status).toBe('failed');
    expect(execution.error_message).toMatch(
      /rejected the request with HTTP 400: Unsupported parameter: tools$/,
    );
    expect(execution.usage).toMatchObject({
      provider: providerCase.name,
      input_tokens: 0,
      output_tokens: 0,
    });
    expect(provider.requestsFor(query)).toHaveLength(1);
  });

  it('should retry with backoff and succeed when the API answers 429 and then 503', async () => {
    const query = uniqueQuery('retry');
    provider.script(
      query,
      standIn.errorReply(429, 'Rate limit reached'),
      standIn.errorReply(503),
      standIn.checkReply({ conditionMet: true, answer: 'Third time lucky.' }),
    );
    const execution = await runOnce(user, query);
    expect(execution).toMatchObject({ status: 'success', answer: 'Third time lucky.' });
    const calls = provider.requestsFor(query);
    expect(calls).toHaveLength(3);
    expect(calls[2].receivedAt - calls[0].receivedAt).toBeGreaterThanOrEqual(400);
  });

  it('should answer a suggestion from the provider when suggest is called', async () => {
    const prompt = uniqueQuery('tell me when the ACME 3000 ships');
    provider.script(
      prompt,
      standIn.suggestReply({
        name: 'ACME watch',
        schedule: '0 */6 * * *',
        notifyBehavior: 'always',
      }),
    );
    const response = await testApp.http
      .post('/api/v1/tasks/suggest')
      .set('Authorization', user.auth)
      .send({ prompt });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'ACME watch',
      schedule: '0 */6 * * *',
      notify_behavior: 'always',
    });
    expect(provider.requestsFor(prompt)).toHaveLength(1);
  });

  it('should answer a preview with sources and create nothing when preview is called', async () => {
    const query = uniqueQuery('preview');
    provider.script(
      query,
      standIn.checkReply({ conditionMet: true, answer: 'Preview answer.', sources: SOURCES }),
    );
    const response = await testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', user.auth)
      .send({ search_query: query, condition_description: 'It has been announced' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      condition_met: true,
      answer: 'Preview answer.',
      reasoning: expect.any(String),
      values: null,
      grounding_sources: SOURCES,
    });
    expect(callsFor(query)).toHaveLength(standIn.callsPerCheck);
  });

  it("should sum a check, a suggestion and a preview in the caller's usage of this month", async () => {
    const spender = await factory.user();
    const query = uniqueQuery('usage');
    await runOnce(spender, query);
    await testApp.http
      .post('/api/v1/tasks/suggest')
      .set('Authorization', spender.auth)
      .send({ prompt: 'watch prices' })
      .expect(200);
    await testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', spender.auth)
      .send({ search_query: query })
      .expect(200);

    const response = await testApp.http
      .get('/api/v1/usage')
      .set('Authorization', spender.auth)
      .expect(200);
    const check = standIn.checkUsage;
    expect(response.body).toEqual({
      month: new Date().toISOString().slice(0, 7),
      executions: 1,
      llm_calls: 3,
      input_tokens: 3 * check.input_tokens,
      output_tokens: 3 * check.output_tokens,
      search_calls: 2 * check.search_calls + providerCase.suggestSearchCalls,
      cost_usd: expect.closeTo(3 * (check.cost_usd ?? 0), 6),
      budget_usd: null,
    });
  });
});
