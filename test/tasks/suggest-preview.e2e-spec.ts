import { expectDetail, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { checkReply, suggestReply } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  type ProviderScript,
  ROOMY_RATE_LIMITS,
  startTaskHarness,
  TaskApi,
  uniqueQuery,
  type TaskHarness,
} from './task-api';

const NO_PROVIDER = /^No grounded-search provider is configured/;
const CRON_5_FIELDS = /^\S+( \S+){4}$/;

async function countRows(testApp: TestApp, table: 'tasks' | 'executions'): Promise<number> {
  const { rows } = await testApp.db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${table}`,
  );
  return rows[0].count;
}

describe('Tasks: suggest and preview', () => {
  let harness: TaskHarness;
  let testApp: TestApp;
  let provider: ProviderScript;
  let user: TestUser;

  beforeAll(async () => {
    harness = await startTaskHarness();
    ({ testApp, provider, owner: user } = harness);
  });

  afterAll(() => harness.close());

  describe('POST /api/v1/tasks/suggest', () => {
    it('should answer 200 with a task configuration when the provider suggests one', async () => {
      const prompt = uniqueQuery('tell me when the ACME 3000 goes on sale');
      provider.script(
        prompt,
        suggestReply({
          name: 'ACME 3000 sale watch',
          searchQuery: 'ACME 3000 release date and availability',
          conditionDescription: 'The ACME 3000 can be bought in a shop',
          schedule: '0 */6 * * *',
          notifyBehavior: 'always',
        }),
      );
      const response = await testApp.http
        .post('/api/v1/tasks/suggest')
        .set('Authorization', user.auth)
        .send({ prompt });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        name: 'ACME 3000 sale watch',
        search_query: 'ACME 3000 release date and availability',
        condition_description: 'The ACME 3000 can be bought in a shop',
        schedule: '0 */6 * * *',
        notify_behavior: 'always',
      });
      expect((response.body as { schedule: string }).schedule).toMatch(CRON_5_FIELDS);
      expect(provider.requestsFor(prompt)).toHaveLength(1);
    });

    it('should pass the current task as context when current_task is given', async () => {
      const prompt = uniqueQuery('make it weekly');
      provider.script(prompt, suggestReply({ schedule: '0 9 * * 1', notifyBehavior: 'once' }));
      const response = await testApp.http
        .post('/api/v1/tasks/suggest')
        .set('Authorization', user.auth)
        .send({
          prompt,
          current_task: {
            name: 'Release watch',
            search_query: 'Example product release date',
            condition_description: 'The release date is announced',
            schedule: '0 9 * * *',
            notify_behavior: 'once',
          },
        });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ schedule: '0 9 * * 1', notify_behavior: 'once' });
      expect(provider.requestsFor(prompt)[0].promptText).toContain('Example product release date');
    });

    it('should answer 422 missing when prompt is absent', async () => {
      const response = await testApp.http
        .post('/api/v1/tasks/suggest')
        .set('Authorization', user.auth)
        .send({});
      expectValidationError(response, [
        { type: 'missing', loc: ['body', 'prompt'], msg: 'Field required' },
      ]);
    });
  });

  describe('POST /api/v1/tasks/preview', () => {
    it('should answer 200 with the check result and create no task when a query is previewed', async () => {
      const query = uniqueQuery('preview');
      provider.script(
        query,
        checkReply({
          conditionMet: true,
          answer: 'The preview answer.',
          reasoning: 'The preview reasoning.',
          sources: [{ uri: 'https://preview.example/a', title: 'Preview source' }],
        }),
      );
      const [tasksBefore, executionsBefore] = [
        await countRows(testApp, 'tasks'),
        await countRows(testApp, 'executions'),
      ];

      const response = await testApp.http
        .post('/api/v1/tasks/preview')
        .set('Authorization', user.auth)
        .send({ search_query: query, condition_description: 'The thing has been announced' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        condition_met: true,
        answer: 'The preview answer.',
        reasoning: 'The preview reasoning.',
        values: null,
        grounding_sources: [{ uri: 'https://preview.example/a', title: 'Preview source' }],
      });
      expect(provider.requestsFor(query)).toHaveLength(1);
      expect(provider.requestsFor(query)[0].promptText).toContain('The thing has been announced');
      expect(await countRows(testApp, 'tasks')).toBe(tasksBefore);
      expect(await countRows(testApp, 'executions')).toBe(executionsBefore);
    });

    it('should extract the values of an output_schema and answer them when one is sent', async () => {
      const query = uniqueQuery('preview with values');
      const outputSchema = {
        type: 'object',
        properties: { price: { type: 'number', description: 'The price in USD' } },
        required: ['price'],
      };
      provider.script(query, checkReply({ answer: 'It costs $12.', values: { price: 12 } }));
      const response = await testApp.http
        .post('/api/v1/tasks/preview')
        .set('Authorization', user.auth)
        .send({ search_query: query, output_schema: outputSchema });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ answer: 'It costs $12.', values: { price: 12 } });
      const [request] = provider.requestsFor(query);
      expect(request.promptText).toContain('"output_schema"');
      expect(request.promptText).toContain('The price in USD');
    });

    it('should answer 400 Invalid output_schema without calling the model when the schema is broken', async () => {
      const query = uniqueQuery('preview with a broken schema');
      const response = await testApp.http
        .post('/api/v1/tasks/preview')
        .set('Authorization', user.auth)
        .send({
          search_query: query,
          output_schema: { type: 'object', properties: { 'Not-A-Name': { type: 'number' } } },
        });
      expectDetail(response, 400, /^Invalid output_schema: /);
      expect(provider.requestsFor(query)).toHaveLength(0);
    });

    it('should answer 422 missing when search_query is absent', async () => {
      const response = await testApp.http
        .post('/api/v1/tasks/preview')
        .set('Authorization', user.auth)
        .send({ condition_description: 'Something happened' });
      expectValidationError(response, [
        { type: 'missing', loc: ['body', 'search_query'], msg: 'Field required' },
      ]);
    });
  });
});

describe('Tasks: no grounded-search provider configured', () => {
  let testApp: TestApp;
  let api: TaskApi;
  let user: TestUser;

  beforeAll(async () => {
    testApp = await startTestApp({ env: ROOMY_RATE_LIMITS });
    api = new TaskApi(testApp);
    user = await new Factory(testApp).user();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('should answer 503 when suggest is called without a provider', async () => {
    const response = await testApp.http
      .post('/api/v1/tasks/suggest')
      .set('Authorization', user.auth)
      .send({ prompt: 'tell me when it rains in Paris' });
    expectDetail(response, 503, NO_PROVIDER);
  });

  it('should answer 503 when preview is called without a provider', async () => {
    const response = await testApp.http
      .post('/api/v1/tasks/preview')
      .set('Authorization', user.auth)
      .send({ search_query: 'weather in Paris tomorrow' });
    expectDetail(response, 503, NO_PROVIDER);
  });

  it('should report the missing provider in immediate_execution_error when run_immediately is true', async () => {
    const task = await api.create(user, { search_query: uniqueQuery(), run_immediately: true });
    expect(task.immediate_execution_error).toMatch(NO_PROVIDER);
  });

  it('should fail an execution with the no-provider message when a task runs without a provider', async () => {
    const task = await api.create(user, { search_query: uniqueQuery(), state: 'paused' });
    const run = await api.execute(user, task.id);
    const execution = await api.waitForExecution(user, task.id, run.id);
    expect(execution).toMatchObject({
      status: 'failed',
      error_message: expect.stringMatching(NO_PROVIDER),
    });
  });
});
