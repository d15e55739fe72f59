import type { ServerResponse } from 'node:http';
import { Factory, type TestUser } from '../support/factory';
import { PageServer } from '../support/page-server';
import { SearxngStandIn } from '../support/searxng-stand-in';
import { parseExposition, sampleValue } from '../support/prometheus-text';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  ROOMY_RATE_LIMITS,
  startTaskHarness,
  TaskApi,
  uniqueQuery,
  type TaskHarness,
} from '../tasks/task-api';

const METRICS_TOKEN = 'metrics-token-for-page-checks';

/** An execution's columns as the check recorded them. */
interface ExecutionRow {
  id: string;
  status: string;
  error_message: string | null;
  claimed_met: boolean | null;
  condition_met: boolean | null;
  answer: string | null;
  reasoning: string | null;
  usage: unknown;
  grounding_sources: unknown;
  value_changes: unknown;
  page_results: Array<Record<string, unknown>> | null;
  verdict_execution_id: string | null;
  notification: { notify: boolean; reason: string; retraction?: unknown };
  result: { current_state?: unknown };
}

interface SnapshotRow {
  status: string | null;
  http_status: number | null;
  title: string | null;
  text: string | null;
  fetched_at: Date | null;
  changed_at: Date | null;
}

/** A page whose HTML the test changes between checks. */
function editablePage(server: PageServer, path: string, html: { body: string; status?: number }) {
  return server.page(path, (_request, response: ServerResponse) => {
    response.writeHead(html.status ?? 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html.body);
  });
}

/** Runs checks of tasks with pages, set on the task row (the API's `pages` is wired apart). */
class PageChecks {
  private readonly factory: Factory;
  private readonly api: TaskApi;

  constructor(
    private readonly testApp: TestApp,
    private readonly owner: TestUser,
  ) {
    this.factory = new Factory(testApp);
    this.api = new TaskApi(testApp);
  }

  async task(
    query: string,
    urls: string[],
    pageRule: Record<string, unknown> | null = null,
    fields: Record<string, unknown> = {},
  ): Promise<string> {
    const task = await this.factory.task(this.owner, { search_query: query, ...fields });
    await this.testApp.db.query('UPDATE tasks SET pages = $2, page_rule = $3 WHERE id = $1', [
      task.id,
      JSON.stringify(urls.map((url) => ({ url }))),
      pageRule === null ? null : JSON.stringify(pageRule),
    ]);
    return task.id;
  }

  async taskWithoutPages(query: string): Promise<string> {
    return (await this.factory.task(this.owner, { search_query: query })).id;
  }

  async run(taskId: string): Promise<ExecutionRow> {
    const pending = await this.api.execute(this.owner, taskId);
    await this.api.waitForExecution(this.owner, taskId, pending.id);
    const { rows } = await this.testApp.db.query<ExecutionRow>(
      `SELECT id, status, error_message, claimed_met, condition_met, answer, reasoning, usage,
         grounding_sources, value_changes, page_results, verdict_execution_id, notification, result
       FROM executions WHERE id = $1`,
      [pending.id],
    );
    return rows[0];
  }

  async snapshot(taskId: string, url: string): Promise<SnapshotRow> {
    const { rows } = await this.testApp.db.query<SnapshotRow>(
      `SELECT status, http_status, title, text, fetched_at, changed_at FROM page_snapshots
       WHERE task_id = $1 AND url = $2`,
      [taskId, url],
    );
    return rows[0];
  }
}

describe('Checks of tasks with pages, with a model', () => {
  let harness: TaskHarness;
  let server: PageServer;
  let checks: PageChecks;

  beforeAll(async () => {
    server = await new PageServer().start();
    harness = await startTaskHarness();
    checks = new PageChecks(harness.testApp, harness.owner);
  });
  afterAll(async () => {
    await harness.close();
    await server.stop();
  });

  it('should call the model for new and changed pages only, carrying the verdict while they stay the same', async () => {
    const query = uniqueQuery('release page');
    const html = { body: '<title>Releases</title><p>Version 1.0</p>' };
    const url = editablePage(server, '/releases', html);
    harness.provider.script(
      query,
      harness.gemini.checkReply({ conditionMet: false, answer: 'Still 1.0', nextCheckAt: null }),
      harness.gemini.checkReply({ conditionMet: true, answer: 'Version 2.0', nextCheckAt: null }),
    );
    const taskId = await checks.task(query, [url]);

    const first = await checks.run(taskId);
    expect(first).toMatchObject({
      status: 'success',
      answer: 'Still 1.0',
      verdict_execution_id: first.id,
      grounding_sources: [{ uri: url, title: 'Releases' }],
      page_results: [{ url, final_url: url, status: 'new', http_status: 200, title: 'Releases' }],
    });
    expect(first.usage).not.toBeNull();
    expect(harness.provider.requestsFor(query)).toHaveLength(1);
    const baseline = await checks.snapshot(taskId, url);
    expect(baseline).toMatchObject({ status: 'new', text: 'Version 1.0', title: 'Releases' });
    expect(baseline.changed_at).toEqual(baseline.fetched_at);

    for (let run = 0; run < 2; run++) {
      const unchanged = await checks.run(taskId);
      expect(unchanged).toMatchObject({
        status: 'success',
        claimed_met: false,
        condition_met: false,
        answer: 'Still 1.0',
        reasoning: first.reasoning,
        usage: null,
        verdict_execution_id: first.id,
        notification: { notify: false, reason: 'pages_unchanged' },
        page_results: [{ url, status: 'same', added: [], removed: [] }],
      });
      expect(unchanged.result.current_state).toEqual(first.result.current_state);
    }
    expect(harness.provider.requestsFor(query)).toHaveLength(1);
    const kept = await checks.snapshot(taskId, url);
    expect(kept.status).toBe('same');
    expect(kept.changed_at).toEqual(baseline.changed_at);

    html.body = '<title>Releases</title><p>Version 2.0</p>';
    const changed = await checks.run(taskId);
    expect(changed).toMatchObject({
      status: 'success',
      claimed_met: true,
      answer: 'Version 2.0',
      verdict_execution_id: changed.id,
      page_results: [{ url, status: 'changed', added: ['Version 2.0'], removed: ['Version 1.0'] }],
    });
    expect(harness.provider.requestsFor(query)).toHaveLength(2);
    const moved = await checks.snapshot(taskId, url);
    expect(moved.text).toBe('Version 2.0');
    expect(moved.changed_at!.getTime()).toBeGreaterThan(baseline.changed_at!.getTime());
  });

  it.each([
    ['its condition', { condition_description: 'Plan B is announced' }],
    [
      'its output_schema',
      { output_schema: { type: 'object', properties: { plan: { type: 'string' } } } },
    ],
    ['a selector of its pages', { pages: [{ url: '', selector: 'p' }] }],
  ])(
    'should ask the model again after an edit of %s while the pages stay the same, and carry again after',
    async (_field, edit: Record<string, unknown>) => {
      const query = uniqueQuery('edited page');
      const url = editablePage(server, `/edited-${query.replace(/\W/g, '')}`, {
        body: '<title>Plan</title><p>Plan A</p>',
      });
      const reply = (answer: string) =>
        harness.gemini.checkReply({ conditionMet: false, answer, nextCheckAt: null });
      harness.provider.script(query, reply('Plan A'), reply('Asked again'));
      const taskId = await checks.task(query, [url]);
      const update = (body: Record<string, unknown>) =>
        harness.testApp.http
          .put(`/api/v1/tasks/${taskId}`)
          .set('Authorization', harness.owner.auth)
          .send(body)
          .expect(200);
      const first = await checks.run(taskId);

      await update({ name: 'Renamed plan watch', notify_behavior: 'always' });
      expect(await checks.run(taskId)).toMatchObject({ verdict_execution_id: first.id });
      expect(harness.provider.requestsFor(query)).toHaveLength(1);

      const pages = edit.pages as Array<Record<string, unknown>> | undefined;
      await update(pages ? { pages: pages.map((page) => ({ ...page, url })) } : edit);
      const asked = await checks.run(taskId);
      expect(asked).toMatchObject({
        status: 'success',
        answer: 'Asked again',
        verdict_execution_id: asked.id,
        page_results: [{ url, status: 'same' }],
      });
      expect(asked.usage).not.toBeNull();
      expect(harness.provider.requestsFor(query)).toHaveLength(2);

      expect(await checks.run(taskId)).toMatchObject({
        answer: 'Asked again',
        verdict_execution_id: asked.id,
      });
      expect(harness.provider.requestsFor(query)).toHaveLength(2);
    },
  );

  it("should show the model an unchanged page's last good text beside a changed page", async () => {
    const query = uniqueQuery('two pages');
    const changing = { body: '<title>News</title><p>Issue 1 of the newsletter</p>' };
    const newsUrl = editablePage(server, `/news-${query.replace(/\W/g, '')}`, changing);
    const pricesUrl = editablePage(server, `/prices-${query.replace(/\W/g, '')}`, {
      body: '<title>Prices</title><p>Standard plan costs 12 euros</p>',
    });
    const reply = harness.gemini.checkReply({ conditionMet: false, nextCheckAt: null });
    harness.provider.script(query, reply, reply);
    const taskId = await checks.task(query, [newsUrl, pricesUrl]);
    await checks.run(taskId);

    changing.body = '<title>News</title><p>Issue 2 of the newsletter</p>';
    const second = await checks.run(taskId);
    expect(second.page_results).toMatchObject([{ status: 'changed' }, { status: 'same' }]);
    const prompt = harness.provider.requestsFor(query)[1].promptText;
    expect(prompt).toContain('Issue 2 of the newsletter');
    expect(prompt).toContain('Standard plan costs 12 euros');
  });

  it('should not carry a verdict waiting for confirmation, and leave carried verdicts out of streaks', async () => {
    const query = uniqueQuery('confirmed page');
    const html = { body: '<p>In stock</p>' };
    const url = editablePage(server, '/stock', html);
    const met = harness.gemini.checkReply({ conditionMet: true, nextCheckAt: null });
    const notMet = harness.gemini.checkReply({ conditionMet: false, nextCheckAt: null });
    harness.provider.script(query, met, met, met, notMet);
    const taskId = await checks.task(query, [url], null, {
      notify_behavior: 'always',
      evidence: { confirmations: 3 },
    });
    const reasons: string[] = [];
    const runAndNote = async () => {
      const execution = await checks.run(taskId);
      reasons.push(execution.notification.reason);
      return execution;
    };

    // Met three times in a row: the first two wait for confirmation, so the pages read the same
    // but the model is asked again.
    for (let run = 0; run < 3; run++) await runAndNote();
    expect(harness.provider.requestsFor(query)).toHaveLength(3);
    expect(await runAndNote()).toMatchObject({ claimed_met: true, condition_met: true });

    html.body = '<p>Sold out</p>';
    await runAndNote();
    await runAndNote();
    html.body = '<p>Sold out again</p>';
    // Two not-met model verdicts with a carried one between them: the carried one does not
    // count, so the third not-met verdict withdraws the alert.
    const second = await runAndNote();
    html.body = '<p>Still sold out</p>';
    const third = await runAndNote();
    expect(reasons).toEqual([
      'awaiting_confirmation',
      'awaiting_confirmation',
      'condition_met',
      'pages_unchanged',
      'condition_not_met',
      'pages_unchanged',
      'condition_not_met',
      'condition_not_met',
    ]);
    expect(second.notification.retraction).toBeUndefined();
    expect(third.notification.retraction).toBeDefined();
    expect(harness.provider.requestsFor(query)).toHaveLength(6);
  });

  it('should show a change to the model again when the check that read it failed', async () => {
    const query = uniqueQuery('change after a failure');
    const html = { body: '<p>Version 1.0</p>' };
    const url = editablePage(server, '/after-failure', html);
    harness.provider.script(
      query,
      harness.gemini.checkReply({ conditionMet: false, answer: 'Still 1.0', nextCheckAt: null }),
      harness.gemini.errorReply(400, 'Bad request'),
      harness.gemini.checkReply({ conditionMet: true, answer: 'Version 2.0', nextCheckAt: null }),
    );
    const taskId = await checks.task(query, [url]);
    await checks.run(taskId);

    html.body = '<p>Version 2.0</p>';
    expect(await checks.run(taskId)).toMatchObject({ status: 'failed' });
    expect(await checks.snapshot(taskId, url)).toMatchObject({ text: 'Version 1.0' });

    const retried = await checks.run(taskId);
    expect(retried).toMatchObject({
      status: 'success',
      condition_met: true,
      verdict_execution_id: retried.id,
      page_results: [{ url, status: 'changed', added: ['Version 2.0'], removed: ['Version 1.0'] }],
    });
    expect(harness.provider.requestsFor(query)).toHaveLength(3);
    expect(await checks.snapshot(taskId, url)).toMatchObject({ text: 'Version 2.0' });
  });

  it('should fail without a model call when every page fails, keeping the last good text', async () => {
    const query = uniqueQuery('failing pages');
    const html: { body: string; status?: number } = { body: '<p>Up</p>' };
    const good = editablePage(server, '/flaky', html);
    const missing = `${server.origin}/missing`;
    const taskId = await checks.task(query, [good, missing]);
    await checks.run(taskId);
    expect(harness.provider.requestsFor(query)).toHaveLength(1);

    html.status = 503;
    const failed = await checks.run(taskId);
    expect(failed).toMatchObject({
      status: 'failed',
      error_message: `All pages failed: ${good}: HTTP 503; ${missing}: HTTP 404`,
      usage: null,
      verdict_execution_id: null,
      page_results: [
        { url: good, status: 'error', http_status: 503, error: 'HTTP 503' },
        { url: missing, status: 'error', http_status: 404, error: 'HTTP 404' },
      ],
    });
    expect(harness.provider.requestsFor(query)).toHaveLength(1);
    expect(await checks.snapshot(taskId, good)).toMatchObject({
      status: 'error',
      http_status: 503,
      text: 'Up',
    });
    expect(await checks.snapshot(taskId, missing)).toMatchObject({
      status: 'error',
      http_status: 404,
      text: null,
      changed_at: null,
    });
  });
});

describe('Checks of tasks with a page rule, with no search provider configured', () => {
  let testApp: TestApp;
  let server: PageServer;
  let checks: PageChecks;

  beforeAll(async () => {
    server = await new PageServer().start();
    testApp = await startTestApp({ env: { ...ROOMY_RATE_LIMITS, METRICS_TOKEN } });
    checks = new PageChecks(testApp, await new Factory(testApp).user());
  });
  afterAll(async () => {
    await testApp.close();
    await server.stop();
  });

  it('should meet contains and not_contains by the page text, without a model', async () => {
    const url = server.fixed('/shop', 200, 'text/html', '<h1>Shop</h1><p>Release 2.0 ships</p>');
    const containsId = await checks.task(uniqueQuery('contains'), [url], {
      type: 'contains',
      text: '2.0',
    });
    const contains = await checks.run(containsId);
    expect(contains).toMatchObject({
      status: 'success',
      claimed_met: true,
      condition_met: true,
      answer: `${url} contains "2.0"`,
      reasoning: `${url} reads: "Release 2.0 ships"`,
      usage: null,
      verdict_execution_id: contains.id,
      grounding_sources: [{ uri: url, title: '127.0.0.1' }],
    });
    expect(contains.result.current_state).toEqual({
      rule: 'contains',
      met: true,
      content_hashes: { [url]: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const notContainsId = await checks.task(uniqueQuery('not contains'), [url], {
      type: 'not_contains',
      text: 'sold out',
    });
    expect(await checks.run(notContainsId)).toMatchObject({
      status: 'success',
      claimed_met: true,
      answer: `${url} does not contain "sold out"`,
      usage: null,
    });

    // Found the same again, the page's last good text decides the rules as before.
    const again = await checks.run(containsId);
    expect(again).toMatchObject({
      claimed_met: true,
      reasoning: `${url} reads: "Release 2.0 ships"`,
      page_results: [{ status: 'same' }],
    });
    expect(await checks.run(notContainsId)).toMatchObject({
      claimed_met: true,
      page_results: [{ status: 'same' }],
    });
  });

  it('should meet changed only once a page changed after its baseline', async () => {
    const html = { body: '<p>Line one</p><p>Line two</p>' };
    const url = editablePage(server, '/changelog', html);
    const taskId = await checks.task(uniqueQuery('changed'), [url], { type: 'changed' });
    expect(await checks.run(taskId)).toMatchObject({ status: 'success', claimed_met: false });
    expect(await checks.run(taskId)).toMatchObject({ status: 'success', claimed_met: false });

    html.body = '<p>Line one</p><p>Line three</p><p>Line four</p>';
    const changed = await checks.run(taskId);
    expect(changed).toMatchObject({
      status: 'success',
      claimed_met: true,
      answer: `${url} changed: 2 lines added, 1 removed`,
      usage: null,
      verdict_execution_id: changed.id,
    });
  });

  it('should count the fetches by status and the checks answered without a model', async () => {
    const response = await testApp.http
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`)
      .expect(200);
    const families = parseExposition(response.text);
    expect(sampleValue(families, 'monitor_page_fetches_total', { status: 'new' })).toBe(3);
    expect(sampleValue(families, 'monitor_page_fetches_total', { status: 'same' })).toBe(3);
    expect(sampleValue(families, 'monitor_page_fetches_total', { status: 'changed' })).toBe(1);
    expect(sampleValue(families, 'monitor_checks_without_model_total', {})).toBe(7);
  });
});

describe('Checks on a chat model without a search engine (LLM_BASE_URL and LLM_MODEL only)', () => {
  let testApp: TestApp;
  let chat: SearxngStandIn;
  let server: PageServer;
  let checks: PageChecks;

  beforeAll(async () => {
    server = await new PageServer().start();
    chat = await new SearxngStandIn().start();
    testApp = await startTestApp({
      env: {
        ...ROOMY_RATE_LIMITS,
        METRICS_TOKEN,
        LLM_BASE_URL: `${chat.baseUrl}/v1`,
        LLM_MODEL: 'qwen3:8b',
        LLM_API_KEY: chat.apiKey,
      },
    });
    checks = new PageChecks(testApp, await new Factory(testApp).user());
  });
  afterAll(async () => {
    await testApp.close();
    await chat.stop();
    await server.stop();
  });

  it('should check a task with pages with one chat call and no search', async () => {
    const url = server.fixed('/self-hosted', 200, 'text/html', '<title>Menu</title><p>Soup</p>');
    chat.respondWith(chat.checkReply({ conditionMet: true, answer: 'Soup is on the menu' }));
    const run = await checks.run(await checks.task(uniqueQuery('menu'), [url]));
    expect(run).toMatchObject({
      status: 'success',
      claimed_met: true,
      answer: 'Soup is on the menu',
      grounding_sources: [{ uri: url, title: 'Menu' }],
    });
    expect(chat.requests.map((request) => request.kind)).toEqual(['check']);
  });

  it('should fail a check of a task without pages, naming the missing search engine', async () => {
    const requests = chat.requests.length;
    const callsBefore = await modelCalls();
    const run = await checks.run(await checks.taskWithoutPages(uniqueQuery('web search')));
    expect(run).toMatchObject({
      status: 'failed',
      error_message:
        'No search engine is configured (SEARXNG_URL is unset): this server checks only tasks with pages',
    });
    expect(chat.requests).toHaveLength(requests);
    // Refused before any call: no model call is counted.
    expect(await modelCalls()).toBe(callsBefore);
  });

  /** `monitor_model_calls_total` of this provider's checks (0 before the first). */
  async function modelCalls(): Promise<number> {
    const response = await testApp.http
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`)
      .expect(200);
    return (
      sampleValue(parseExposition(response.text), 'monitor_model_calls_total', {
        provider: 'searxng',
        kind: 'check',
      }) ?? 0
    );
  }
});
