import { randomUUID } from 'node:crypto';
import { expectDetail, expectValidationError } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { PageServer } from '../support/page-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { callTool, connectMcp, textOf } from '../mcp/mcp-client';
import { createPublicTask, setUsername } from '../sharing/sharing-fixtures';
import { startTaskHarness, type TaskBody, type TaskHarness } from '../tasks/task-api';

const COOKIE = { Cookie: 'session=owner-page-secret' };
const PAGES = [
  { url: 'http://127.0.0.1:9/pricing', selector: '#price', headers: COOKIE },
  { url: 'http://127.0.0.1:9/changelog' },
];
const RULE = { type: 'contains', text: '2.0' };

interface PageSnapshotBody {
  url: string;
  status: string | null;
  http_status: number | null;
  title: string | null;
  text: string | null;
  content_hash: string | null;
  fetched_at: string | null;
  changed_at: string | null;
}

describe('Page monitors: the task and execution API', () => {
  let harness: TaskHarness;
  let testApp: TestApp;
  let factory: Factory;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    harness = await startTaskHarness();
    ({ testApp, factory, owner, stranger } = harness);
  });

  afterAll(() => harness.close());

  function create(body: Record<string, unknown>) {
    return testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', owner.auth)
      .send({ search_query: 'Has the price changed yet?', state: 'paused', ...body });
  }

  function update(taskId: string, body: Record<string, unknown>) {
    return testApp.http.put(`/api/v1/tasks/${taskId}`).set('Authorization', owner.auth).send(body);
  }

  async function taskAs(user: TestUser | null, taskId: string): Promise<TaskBody> {
    const call = testApp.http.get(`/api/v1/tasks/${taskId}`);
    return (await (user ? call.set('Authorization', user.auth) : call).expect(200))
      .body as TaskBody;
  }

  describe('pages and page_rule on create and update', () => {
    it('should store pages and page_rule and answer them to the owner, headers included', async () => {
      const response = await create({ pages: PAGES, page_rule: RULE });
      expect(response.status).toBe(200);
      const task = response.body as TaskBody;
      expect(task.pages).toEqual(PAGES);
      expect(task.page_rule).toEqual(RULE);
      expect((await taskAs(owner, task.id)).pages).toEqual(PAGES);
    });

    it('should answer pages and page_rule as null for a task without them', async () => {
      const task = await factory.task(owner);
      expect(task.pages).toBeNull();
      expect(task.page_rule).toBeNull();
    });

    it('should keep each URL as WHATWG parsing writes it', async () => {
      const task = (await create({ pages: [{ url: 'HTTP://127.0.0.1:9' }] }).expect(200))
        .body as TaskBody;
      expect(task.pages).toEqual([{ url: 'http://127.0.0.1:9/' }]);
    });

    it.each([
      [[], 'Invalid pages: must be a list of 1 to 10 pages'],
      [
        Array.from({ length: 11 }, (_, index) => ({ url: `http://127.0.0.1:9/${index}` })),
        'Invalid pages: must be a list of 1 to 10 pages',
      ],
      [
        [{ url: 'ftp://127.0.0.1/file' }],
        'Invalid pages: pages[0].url must be an http or https URL',
      ],
      [
        [{ url: 'http://127.0.0.1:9/a' }, { url: 'http://127.0.0.1:9/%61/../a' }],
        'Invalid pages: http://127.0.0.1:9/a is listed twice',
      ],
      [
        [{ url: 'http://127.0.0.1:9/', selector: 'div[' }],
        'Invalid pages: pages[0].selector: not a valid CSS selector',
      ],
      [
        [
          { url: 'http://127.0.0.1:9/a' },
          { url: 'http://127.0.0.1:9/b', selector: 'ul:has(> li)' },
        ],
        'Invalid pages: pages[1].selector: :has is not supported; use type, class, id and attribute ' +
          'selectors, combinators, :first-child, :last-child, :nth-child() and :not()',
      ],
      [
        [{ url: 'http://127.0.0.1:9/', headers: { Host: 'elsewhere.example' } }],
        "Invalid pages: pages[0].headers: header 'Host' is not allowed",
      ],
      [
        [{ url: 'http://127.0.0.1:9/', method: 'POST' }],
        'Invalid pages: pages[0] has an unknown field method',
      ],
    ])('should refuse pages %j with 400 "%s"', async (pages, detail) => {
      expectDetail(await create({ pages }), 400, detail);
    });

    it.each([
      [{ type: 'changed', text: 'x' }, 'Invalid page_rule: text is not allowed with type changed'],
      [
        { type: 'matches', text: 'x' },
        'Invalid page_rule: type must be changed, new_items, contains, not_contains, below, above or equals',
      ],
      [{ type: 'contains', text: '  ' }, 'Invalid page_rule: text must be 1 to 200 characters'],
    ])('should refuse page_rule %j with 400 "%s"', async (pageRule, detail) => {
      expectDetail(await create({ pages: PAGES, page_rule: pageRule }), 400, detail);
    });

    it('should refuse a page_rule without pages', async () => {
      expectDetail(
        await create({ page_rule: RULE }),
        400,
        'Invalid page_rule: a page_rule needs pages',
      );
    });

    it('should refuse a page_rule with an output_schema or on_change', async () => {
      const outputSchema = { type: 'object', properties: { price: { type: 'number' } } };
      expectDetail(
        await create({ pages: PAGES, page_rule: RULE, output_schema: outputSchema }),
        400,
        'Invalid page_rule: output_schema is not allowed with a page_rule',
      );
      expectDetail(
        await create({ pages: PAGES, page_rule: RULE, notify_behavior: 'on_change' }),
        400,
        'Invalid page_rule: notify_behavior on_change is not allowed with a page_rule',
      );
      const task = (await create({ pages: PAGES, page_rule: RULE }).expect(200)).body as TaskBody;
      expectDetail(
        await update(task.id, { output_schema: outputSchema }),
        400,
        'Invalid page_rule: output_schema is not allowed with a page_rule',
      );
    });

    it('should set, replace and clear pages and page_rule on update', async () => {
      const task = await factory.task(owner);
      const set = await update(task.id, { pages: PAGES, page_rule: { type: 'changed' } });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ pages: PAGES, page_rule: { type: 'changed' } });

      const replaced = await update(task.id, { pages: [PAGES[1]] });
      expect(replaced.body).toMatchObject({ pages: [PAGES[1]], page_rule: { type: 'changed' } });

      const ruleCleared = await update(task.id, { page_rule: null });
      expect(ruleCleared.body).toMatchObject({ pages: [PAGES[1]], page_rule: null });

      await update(task.id, { page_rule: RULE }).expect(200);
      const cleared = await update(task.id, { pages: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ pages: null, page_rule: null });
      expect(await taskAs(owner, task.id)).toMatchObject({ pages: null, page_rule: null });
    });

    it('should refuse clearing pages while setting a page_rule, and change nothing', async () => {
      const task = (await create({ pages: PAGES }).expect(200)).body as TaskBody;
      expectDetail(
        await update(task.id, { pages: null, page_rule: RULE }),
        400,
        'Invalid page_rule: a page_rule needs pages',
      );
      expectDetail(
        await update(task.id, { pages: [{ url: 'gopher://127.0.0.1/' }] }),
        400,
        'Invalid pages: pages[0].url must be an http or https URL',
      );
      expect(await taskAs(owner, task.id)).toMatchObject({ pages: PAGES, page_rule: null });
    });
  });

  describe('views and forks', () => {
    it('should show non-owners of a public task url, selector and page_rule, never headers', async () => {
      const task = await createPublicTask(testApp, owner, {
        body: { pages: PAGES, page_rule: RULE },
      });
      const publicPages = [{ url: PAGES[0].url, selector: PAGES[0].selector }, PAGES[1]];
      for (const viewer of [stranger, null]) {
        const seen = await taskAs(viewer, task.id);
        expect(seen.pages).toEqual(publicPages);
        expect(seen.page_rule).toEqual(RULE);
        expect(JSON.stringify(seen)).not.toContain('owner-page-secret');
      }
    });

    it("should copy url, selector and page_rule into another user's fork, never headers", async () => {
      const task = await createPublicTask(testApp, owner, {
        body: { pages: PAGES, page_rule: RULE },
      });
      const fork = await testApp.http
        .post(`/api/v1/tasks/${task.id}/fork`)
        .set('Authorization', stranger.auth)
        .expect(200);
      expect(fork.body).toMatchObject({
        pages: [{ url: PAGES[0].url, selector: PAGES[0].selector }, PAGES[1]],
        page_rule: RULE,
      });
      expect(JSON.stringify(fork.body)).not.toContain('owner-page-secret');
      const stored = await testApp.db.query<{ pages: unknown }>(
        'SELECT pages FROM tasks WHERE id = $1',
        [(fork.body as TaskBody).id],
      );
      expect(JSON.stringify(stored.rows[0].pages)).not.toContain('owner-page-secret');
    });

    it("should keep headers in the owner's own fork", async () => {
      const task = (await create({ pages: PAGES, page_rule: RULE }).expect(200)).body as TaskBody;
      const fork = await testApp.http
        .post(`/api/v1/tasks/${task.id}/fork`)
        .set('Authorization', owner.auth)
        .expect(200);
      expect(fork.body).toMatchObject({ pages: PAGES, page_rule: RULE });
    });
  });

  describe('page_results and verdict_execution_id on executions', () => {
    const pageResults = [
      {
        url: PAGES[0].url,
        final_url: PAGES[0].url,
        status: 'changed',
        http_status: 200,
        title: 'Pricing',
        error: null,
        added: ['Pro: $12'],
        removed: ['Pro: $10'],
        new_items: [{ title: 'Pro plan', url: 'http://127.0.0.1:9/pricing#pro' }],
        fetched_at: '2026-11-26T10:00:00.000Z',
      },
      {
        url: PAGES[1].url,
        final_url: null,
        status: 'error',
        http_status: 503,
        title: null,
        error: 'HTTP 503',
        added: [],
        removed: [],
        new_items: null,
        fetched_at: '2026-11-26T10:00:00.000Z',
      },
    ];

    async function pageTaskWithExecution(): Promise<{ task: TaskBody; executionId: string }> {
      const task = await createPublicTask(testApp, owner, { body: { pages: PAGES } });
      const executionId = await factory.execution(task, { last: true, conditionMet: false });
      await testApp.db.query(
        'UPDATE executions SET page_results = $2, verdict_execution_id = $1 WHERE id = $1',
        [executionId, JSON.stringify(pageResults)],
      );
      return { task, executionId };
    }

    it('should show the owner page_results and verdict_execution_id, errors included', async () => {
      const { task, executionId } = await pageTaskWithExecution();
      const executions = await testApp.http
        .get(`/api/v1/tasks/${task.id}/executions`)
        .set('Authorization', owner.auth)
        .expect(200);
      expect(executions.body).toEqual([
        expect.objectContaining({
          page_results: pageResults,
          verdict_execution_id: executionId,
        }),
      ]);
      expect((await taskAs(owner, task.id)).last_execution).toMatchObject({
        page_results: pageResults,
        verdict_execution_id: executionId,
      });
    });

    it('should show non-owners each page result with error null, and only the url, status and http_status of a page with headers', async () => {
      const { task, executionId } = await pageTaskWithExecution();
      const withHeaders = new Set(PAGES.filter((page) => page.headers).map((page) => page.url));
      const scrubbed = pageResults.map((line) =>
        withHeaders.has(line.url)
          ? {
              ...line,
              error: null,
              title: null,
              final_url: null,
              added: null,
              removed: null,
              new_items: null,
              values: null,
              value_errors: null,
            }
          : { ...line, error: null },
      );
      const executions = await testApp.http
        .get(`/api/v1/tasks/${task.id}/executions`)
        .set('Authorization', stranger.auth)
        .expect(200);
      expect(executions.body).toEqual([
        expect.objectContaining({ page_results: scrubbed, verdict_execution_id: executionId }),
      ]);
      expect((await taskAs(null, task.id)).last_execution).toMatchObject({
        page_results: scrubbed,
      });
    });

    it('should answer page_results and verdict_execution_id as null for a search task', async () => {
      const task = await factory.task(owner);
      await factory.execution(task, { last: true, conditionMet: false });
      expect((await taskAs(owner, task.id)).last_execution).toMatchObject({
        page_results: null,
        verdict_execution_id: null,
      });
    });
  });

  describe('GET /api/v1/tasks/{id}/pages', () => {
    function pagesOf(user: TestUser | null, taskId: string) {
      const call = testApp.http.get(`/api/v1/tasks/${taskId}/pages`);
      return user ? call.set('Authorization', user.auth) : call;
    }

    it("should answer each page's snapshot in the task's page order, null fields for a page never fetched", async () => {
      const task = (
        await create({ pages: [...PAGES, { url: 'http://127.0.0.1:9/faq' }] }).expect(200)
      ).body as TaskBody;
      await testApp.db.query(
        `INSERT INTO page_snapshots (task_id, url, status, http_status, title, text, content_hash,
           etag, last_modified, fetched_at, changed_at)
         VALUES ($1, $2, 'error', 503, 'Changelog', 'v1.9 released', $3, '"v19"', NULL,
           '2026-11-26T09:00:00Z', '2026-11-25T09:00:00Z'),
                ($1, $4, 'same', 200, 'Pricing', 'Pro: $10', $5, NULL, NULL,
           '2026-11-26T08:00:00Z', '2026-11-20T08:00:00Z')`,
        [task.id, PAGES[1].url, 'a'.repeat(64), PAGES[0].url, 'b'.repeat(64)],
      );
      const response = await pagesOf(owner, task.id);
      expect(response.status).toBe(200);
      expect(response.body as PageSnapshotBody[]).toEqual([
        {
          url: PAGES[0].url,
          status: 'same',
          http_status: 200,
          title: 'Pricing',
          text: 'Pro: $10',
          content_hash: 'b'.repeat(64),
          fetched_at: '2026-11-26T08:00:00.000Z',
          changed_at: '2026-11-20T08:00:00.000Z',
        },
        {
          url: PAGES[1].url,
          status: 'error',
          http_status: 503,
          title: 'Changelog',
          text: 'v1.9 released',
          content_hash: 'a'.repeat(64),
          fetched_at: '2026-11-26T09:00:00.000Z',
          changed_at: '2026-11-25T09:00:00.000Z',
        },
        {
          url: 'http://127.0.0.1:9/faq',
          status: null,
          http_status: null,
          title: null,
          text: null,
          content_hash: null,
          fetched_at: null,
          changed_at: null,
        },
      ]);
    });

    it('should answer an empty list for a task without pages', async () => {
      const task = await factory.task(owner);
      expect((await pagesOf(owner, task.id).expect(200)).body).toEqual([]);
    });

    it('should answer 404 to anyone but the owner, even for a public task', async () => {
      await setUsername(testApp, stranger);
      const task = await createPublicTask(testApp, owner, { body: { pages: PAGES } });
      expectDetail(await pagesOf(stranger, task.id), 404, 'Task not found');
      expectDetail(await pagesOf(owner, randomUUID()), 404, 'Task not found');
      expect((await pagesOf(null, task.id)).status).toBe(401);
    });
  });

  describe('MCP', () => {
    it('should list pages on create_task, update_task and preview_task, page_rule on the first two, and judge them as REST does', async () => {
      const client = await connectMcp(testApp, owner.auth);
      try {
        const { tools } = await client.listTools();
        const schemaOf = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema;
        for (const name of ['create_task', 'update_task', 'preview_task'])
          expect(schemaOf(name).properties).toHaveProperty('pages');
        for (const name of ['create_task', 'update_task'])
          expect(schemaOf(name).properties).toHaveProperty('page_rule');

        const created = await callTool(client, 'create_task', {
          search_query: 'Has the price changed yet?',
          state: 'paused',
          pages: PAGES,
          page_rule: RULE,
        });
        expect(created.structuredContent).toMatchObject({ pages: PAGES, page_rule: RULE });
        const refused = await callTool(client, 'create_task', {
          search_query: 'Has the price changed yet?',
          state: 'paused',
          page_rule: RULE,
        });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toBe('Invalid page_rule: a page_rule needs pages');
      } finally {
        await client.close();
      }
    });
  });

  describe('search_query and name left out', () => {
    const WATCHED = 'http://127.0.0.1:9/pricing';
    let pageServer: PageServer;

    beforeAll(async () => {
      pageServer = await new PageServer().start();
    });
    afterAll(() => pageServer.stop());

    function createBare(body: Record<string, unknown>) {
      return testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', owner.auth)
        .send({ state: 'paused', ...body });
    }

    it('should watch the first page by its URL and name the task by its host and path when they are left out', async () => {
      const task = (
        await createBare({ pages: [{ url: `${WATCHED}?tab=all` }, PAGES[1]] }).expect(200)
      ).body as TaskBody;
      expect(task).toMatchObject({
        name: '127.0.0.1:9/pricing',
        search_query: `Watch ${WATCHED}?tab=all`,
        condition_description: `Watch ${WATCHED}?tab=all`,
      });
    });

    it('should cut them to 500 and 100 characters for a long URL', async () => {
      const url = `http://127.0.0.1:9/${'p'.repeat(600)}`;
      const task = (await createBare({ pages: [{ url }] }).expect(200)).body as TaskBody;
      expect(task.search_query).toBe(`Watch ${url}`.slice(0, 500));
      expect(task.name).toBe(`127.0.0.1:9/${'p'.repeat(88)}`);
    });

    it('should keep what the request gives', async () => {
      const task = (
        await createBare({
          name: 'Pricing',
          search_query: 'Has the price dropped?',
          pages: PAGES,
        }).expect(200)
      ).body as TaskBody;
      expect(task).toMatchObject({ name: 'Pricing', search_query: 'Has the price dropped?' });
    });

    it('should still require search_query without pages, and judge pages first when they are given', async () => {
      for (const body of [{}, { pages: null }]) {
        expectValidationError(await createBare(body), [
          { type: 'missing', loc: ['body', 'search_query'], msg: 'Field required' },
        ]);
      }
      expectDetail(
        await createBare({ pages: [] }),
        400,
        'Invalid pages: must be a list of 1 to 10 pages',
      );
    });

    it('should preview the first page under its Watch query when the preview gives none', async () => {
      const url = pageServer.fixed('/release', 200, 'text/html', '<h1>Version 2.0 released</h1>');
      const response = await testApp.http
        .post('/api/v1/tasks/preview')
        .set('Authorization', owner.auth)
        .send({ pages: [{ url }] });
      expect(response.status).toBe(200);
      expect(harness.provider.requestsFor(`Watch ${url}`)).toHaveLength(1);
    });

    it('should leave them out on MCP create_task and preview_task too', async () => {
      const client = await connectMcp(testApp, owner.auth);
      try {
        const { tools } = await client.listTools();
        for (const name of ['create_task', 'preview_task'])
          expect(
            tools.find((tool) => tool.name === name)!.inputSchema.required ?? [],
          ).not.toContain('search_query');
        const created = await callTool(client, 'create_task', { state: 'paused', pages: PAGES });
        expect(created.structuredContent).toMatchObject({
          name: '127.0.0.1:9/pricing',
          search_query: `Watch ${PAGES[0].url}`,
        });
        const url = pageServer.fixed('/mcp-release', 200, 'text/plain', 'Version 2.1 released');
        const preview = await callTool(client, 'preview_task', { pages: [{ url }] });
        expect(preview.isError).toBeFalsy();
        expect(harness.provider.requestsFor(`Watch ${url}`)).toHaveLength(1);
        const refused = await callTool(client, 'create_task', { state: 'paused' });
        expect(refused.isError).toBe(true);
      } finally {
        await client.close();
      }
    });
  });

  describe('POST /api/v1/tasks/suggest', () => {
    function suggest(prompt: string) {
      return testApp.http
        .post('/api/v1/tasks/suggest')
        .set('Authorization', owner.auth)
        .send({ prompt });
    }

    it("should carry the prompt's URLs as pages, in order, without trailing punctuation", async () => {
      const response = await suggest(
        'Watch https://example.com/pricing. Also (https://example.org/changelog), ' +
          'HTTP://status.example.net/?q=1! and https://example.com/pricing again; ' +
          'https://example.com/a: https://example.com/b? ftp://example.com/c',
      );
      expect(response.status).toBe(200);
      expect((response.body as { pages: unknown }).pages).toEqual([
        { url: 'https://example.com/pricing' },
        { url: 'https://example.org/changelog' },
        { url: 'HTTP://status.example.net/?q=1' },
        { url: 'https://example.com/a' },
        { url: 'https://example.com/b' },
      ]);
    });

    it('should carry the first 10 distinct URLs only', async () => {
      const urls = Array.from({ length: 12 }, (_, index) => `https://example.com/${index}`);
      const response = await suggest(`Watch ${urls.join(' ')}`).expect(200);
      expect((response.body as { pages: unknown }).pages).toEqual(
        urls.slice(0, 10).map((url) => ({ url })),
      );
    });

    it('should leave pages out when the prompt holds no URL', async () => {
      const response = await suggest('Tell me when the ACME 3000 goes on sale').expect(200);
      expect(response.body).not.toHaveProperty('pages');
    });
  });
});

describe('Page monitors: pages against the SSRF guard, and a page rule without a provider', () => {
  let testApp: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WORKER_ENABLED: 'false' },
    });
    owner = await new Factory(testApp).user();
  });

  afterAll(() => testApp.close());

  function create(body: Record<string, unknown>) {
    return testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', owner.auth)
      .send({ search_query: 'Has the price changed yet?', state: 'paused', ...body });
  }

  it('should refuse a page whose host is a private address when the task is saved', async () => {
    expectDetail(
      await create({ pages: [{ url: 'http://127.0.0.1:8080/admin' }] }),
      400,
      'Invalid pages: url 127.0.0.1 resolves to a private or reserved address ' +
        '(private and local addresses are refused; set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow them)',
    );
  });

  it('should not report a missing provider for a page rule task run at once', async () => {
    const ruled = await create({
      pages: [{ url: 'http://93.184.215.14/' }],
      page_rule: { type: 'changed' },
      run_immediately: true,
    });
    expect(ruled.status).toBe(200);
    expect((ruled.body as TaskBody).immediate_execution_error).toBeNull();
    const modelled = await create({
      pages: [{ url: 'http://93.184.215.14/' }],
      run_immediately: true,
    });
    expect((modelled.body as TaskBody).immediate_execution_error).toMatch(
      /^No grounded-search provider is configured/,
    );
  });
});
