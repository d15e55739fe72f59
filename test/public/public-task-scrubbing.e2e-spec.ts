import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import {
  ProviderScript,
  ROOMY_RATE_LIMITS,
  TaskApi,
  uniqueQuery,
  type ExecutionBody,
  type TaskBody,
} from '../tasks/task-api';
import { PageServer } from '../support/page-server';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  clientIp,
  createPublicTask,
  ownerSecrets,
  type OwnerSecrets,
} from '../sharing/sharing-fixtures';

interface WebhookConfig {
  type: 'webhook';
  secret: string;
}

/**
 * Public task payloads never carry the owner's user_id, email, webhook or
 * notification config. Checked field by field on every surface that shows a task to non-owners.
 */
describe('What non-owners see of a public task', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let owner: TestUser;
  let stranger: TestUser;
  let secrets: OwnerSecrets;
  let task: TaskBody;
  let webhookSecret: string;
  const errorText = 'Upstream said 401 for key AIza-owner-private-key';

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    testApp = await startTestApp({ gemini, env: { ...ROOMY_RATE_LIMITS, TRUST_PROXY: '1' } });
    const factory = new Factory(testApp);
    owner = await factory.user();
    stranger = await factory.user();
    secrets = ownerSecrets();
    task = await createPublicTask(testApp, owner, { secrets, body: { name: 'Scrubbed task' } });
    await factory.execution(task, {
      status: 'failed',
      errorMessage: errorText,
      result: { condition_met: null, error: errorText },
      last: true,
    });
    const full = await testApp.http
      .get(`/api/v1/tasks/${task.id}`)
      .set('Authorization', owner.auth)
      .expect(200);
    webhookSecret = (
      (full.body as { notifications: WebhookConfig[] }).notifications.find(
        (config) => config.type === 'webhook',
      ) as WebhookConfig
    ).secret;
  });

  afterAll(async () => {
    await testApp.close();
    await gemini.stop();
  });

  function expectScrubbed(body: TaskBody & Record<string, unknown>): void {
    expect(body.id).toBe(task.id);
    expect(body).not.toHaveProperty('user_id');
    expect(body.notifications).toEqual([]);
    expect(body.notification_email).toBeNull();
    expect(body.webhook_url).toBeNull();
    const lastExecution = body.last_execution as Record<string, unknown>;
    expect(lastExecution).toMatchObject({
      status: 'failed',
      error_message: null,
      notification: null,
    });
    expect(lastExecution.result).not.toHaveProperty('error');
    const text = JSON.stringify(body);
    for (const secret of [
      owner.id,
      owner.email,
      secrets.email,
      secrets.webhookUrl,
      secrets.headerName,
      secrets.headerValue,
      webhookSecret,
      errorText,
      'whsec_',
    ]) {
      expect(text).not.toContain(secret);
    }
  }

  it('should show the owner everything (the fixture really holds private data)', async () => {
    const response = await testApp.http
      .get(`/api/v1/tasks/${task.id}`)
      .set('Authorization', owner.auth)
      .expect(200);
    const body = response.body as Record<string, unknown>;
    expect(body).toMatchObject({
      user_id: owner.id,
      notification_email: secrets.email,
      webhook_url: secrets.webhookUrl,
      last_execution: { error_message: errorText },
    });
    expect(JSON.stringify(body)).toContain(secrets.headerValue);
    expect(webhookSecret).toMatch(/^whsec_/);
  });

  it('should scrub GET /api/v1/tasks/{id} for an anonymous caller', async () => {
    const response = await testApp.http.get(`/api/v1/tasks/${task.id}`).expect(200);
    expectScrubbed(response.body as TaskBody);
  });

  it('should scrub GET /api/v1/tasks/{id} for another signed-in user', async () => {
    const response = await testApp.http
      .get(`/api/v1/tasks/${task.id}`)
      .set('Authorization', stranger.auth)
      .expect(200);
    expectScrubbed(response.body as TaskBody);
  });

  it('should scrub GET /api/v1/public/tasks/id/{id}, anonymous or signed in (even as the owner)', async () => {
    for (const auth of [null, stranger.auth, owner.auth]) {
      const call = testApp.http
        .get(`/api/v1/public/tasks/id/${task.id}`)
        .set('X-Forwarded-For', clientIp());
      const response = await (auth ? call.set('Authorization', auth) : call).expect(200);
      expectScrubbed(response.body as TaskBody);
    }
  });

  it('should scrub every task of the public listing', async () => {
    for (const sort of ['recent', 'popular']) {
      const response = await testApp.http
        .get('/api/v1/public/tasks')
        .set('X-Forwarded-For', clientIp())
        .query({ sort_by: sort, limit: 100 })
        .expect(200);
      const listed = (response.body as { tasks: TaskBody[] }).tasks.find(
        (candidate) => candidate.id === task.id,
      );
      expect(listed).toBeDefined();
      expectScrubbed(listed as TaskBody);
    }
  });

  describe('output_schema, evidence and what the checks made of them', () => {
    const schema = {
      type: 'object',
      properties: {
        price: { type: 'number', description: 'Price in USD' },
        stage: { type: 'string', enum: ['beta', 'stable'] },
        in_stock: { type: 'boolean' },
      },
      required: ['price'],
    };
    const evidence = { min_domains: 2, trusted_domains: ['vendor.example'], confirmations: 2 };
    const sources = [
      { uri: 'https://www.vendor.example/pricing', title: 'Pricing' },
      { uri: 'https://news.example.org/a', title: 'News' },
    ];
    let alertTask: TaskBody;
    let ownerRuns: ExecutionBody[];

    beforeAll(async () => {
      const api = new TaskApi(testApp);
      const provider = new ProviderScript(gemini);
      const query = uniqueQuery('public price watch');
      provider.script(
        query,
        gemini.checkReply({ values: { price: 10, stage: 'beta', in_stock: false }, sources }),
        gemini.checkReply({
          conditionMet: true,
          values: { price: '12.5', stage: 'stable', in_stock: 'true' },
          sources,
        }),
        gemini.checkReply({ values: { price: 'ask the shop' }, sources }),
      );
      alertTask = await createPublicTask(testApp, owner, {
        body: {
          search_query: query,
          notify_behavior: 'on_change',
          output_schema: schema,
          evidence,
        },
      });
      for (let index = 0; index < 3; index += 1) {
        const pending = await api.execute(owner, alertTask.id);
        await api.waitForExecution(owner, alertTask.id, pending.id);
      }
      ownerRuns = await api.executions(owner, alertTask.id);
    });

    function withoutError(result: ExecutionBody['result']): ExecutionBody['result'] {
      if (result === null) return null;
      const { error: _error, ...visible } = result;
      return visible;
    }

    function expectFields(body: TaskBody): void {
      expect(body).toMatchObject({
        id: alertTask.id,
        notify_behavior: 'on_change',
        output_schema: schema,
        evidence,
        notifications: [],
      });
    }

    it('should run the checks the owner sees (values, changes, evidence, a failed reply)', () => {
      expect(ownerRuns.map((run) => run.status)).toEqual(['failed', 'success', 'success']);
      expect(ownerRuns[0].error_message).toMatch(/^Reply does not match output_schema: /);
      expect(ownerRuns[1]).toMatchObject({
        claimed_met: true,
        condition_met: true,
        evidence: { distinct_domains: 2, trusted_matches: 1, satisfied: true },
        values: { price: 12.5, stage: 'stable', in_stock: true },
        changes: [
          { field: 'price', before: 10, after: 12.5 },
          { field: 'stage', before: 'beta', after: 'stable' },
          { field: 'in_stock', before: false, after: true },
        ],
        notification: { notify: true, reason: 'values_changed' },
      });
      expect(ownerRuns[2]).toMatchObject({ claimed_met: false, changes: [] });
    });

    it('should show the task fields to an anonymous caller, another user, the public view and the listing', async () => {
      expectFields((await testApp.http.get(`/api/v1/tasks/${alertTask.id}`).expect(200)).body);
      expectFields(
        (
          await testApp.http
            .get(`/api/v1/tasks/${alertTask.id}`)
            .set('Authorization', stranger.auth)
            .expect(200)
        ).body,
      );
      expectFields(
        (
          await testApp.http
            .get(`/api/v1/public/tasks/id/${alertTask.id}`)
            .set('X-Forwarded-For', clientIp())
            .expect(200)
        ).body,
      );
      const listing = await testApp.http
        .get('/api/v1/public/tasks')
        .set('X-Forwarded-For', clientIp())
        .query({ limit: 100 })
        .expect(200);
      expectFields(
        (listing.body as { tasks: TaskBody[] }).tasks.find(
          (candidate) => candidate.id === alertTask.id,
        ) as TaskBody,
      );
    });

    it('should show non-owners the verdict, evidence, values and changes of every execution, but no error, decision or usage', async () => {
      const anonymous = await testApp.http
        .get(`/api/v1/tasks/${alertTask.id}/executions`)
        .expect(200);
      const signedIn = await testApp.http
        .get(`/api/v1/tasks/${alertTask.id}/executions`)
        .set('Authorization', stranger.auth)
        .expect(200);
      const lastExecution = (
        (await testApp.http.get(`/api/v1/tasks/${alertTask.id}`).expect(200)).body as TaskBody
      ).last_execution as ExecutionBody;
      for (const seen of [anonymous.body as ExecutionBody[], signedIn.body as ExecutionBody[]]) {
        expect(seen).toEqual(
          ownerRuns.map((run) => ({
            ...run,
            error_message: null,
            notification: null,
            usage: null,
            result: withoutError(run.result),
          })),
        );
      }
      expect(lastExecution).toEqual((anonymous.body as ExecutionBody[])[0]);
      expect(JSON.stringify([anonymous.body, lastExecution])).not.toContain(
        ownerRuns[0].error_message,
      );
    });

    it('should copy the fields into another user’s fork, without the owner’s notifications', async () => {
      const fork = await testApp.http
        .post(`/api/v1/tasks/${alertTask.id}/fork`)
        .set('Authorization', stranger.auth)
        .send({})
        .expect(200);
      expect(fork.body).toMatchObject({
        notify_behavior: 'on_change',
        output_schema: schema,
        evidence,
        notifications: [],
        forked_from_task_id: alertTask.id,
      });
      const stored = await testApp.http
        .get(`/api/v1/tasks/${(fork.body as TaskBody).id}`)
        .set('Authorization', stranger.auth)
        .expect(200);
      expect(stored.body).toMatchObject({ output_schema: schema, evidence });
    });
  });

  describe("pages fetched with the owner's headers", () => {
    const secretTitle = 'Members area of the owner';
    const secretLine = (version: number) => `Balance of the owner account, statement ${version}`;
    let pages: PageServer;
    let version = 1;
    let membersUrl: string;
    let newsUrl: string;
    let pageTask: TaskBody;
    let ownerRuns: ExecutionBody[];

    /** Everything a page fetched with the owner's cookie held. */
    function expectNothingFetchedWithHeaders(seen: unknown): void {
      const text = JSON.stringify(seen);
      for (const secret of [secretTitle, 'statement 1', 'statement 2', '/members/home']) {
        expect(text).not.toContain(secret);
      }
    }

    function expectScrubbedRun(run: ExecutionBody): void {
      const [members, news] = run.page_results as Array<Record<string, unknown>>;
      expect(members).toEqual({
        url: membersUrl,
        // How it was loaded is part of the page, which non-owners see.
        render: 'http',
        final_url: null,
        status: expect.stringMatching(/^(new|changed)$/),
        http_status: 200,
        title: null,
        error: null,
        added: null,
        removed: null,
        new_items: null,
        values: null,
        value_errors: null,
        fetched_at: expect.any(String),
      });
      expect(news).toMatchObject({ url: newsUrl, final_url: newsUrl, title: 'Open news' });
      expect(run.reasoning).toBeNull();
      expectNothingFetchedWithHeaders(run);
    }

    beforeAll(async () => {
      pages = await new PageServer().start();
      membersUrl = pages.redirect('/members', `${pages.origin}/members/home`);
      pages.page('/members/home', (_request, response) => {
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<html><head><title>${secretTitle}</title></head><body><p>${secretLine(version)}</p></body></html>`,
          );
      });
      newsUrl = pages.page('/news', (_request, response) => {
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<html><head><title>Open news</title></head><body><p>News ${version}</p></body></html>`,
          );
      });
      pageTask = await createPublicTask(testApp, owner, {
        body: {
          search_query: uniqueQuery('members page'),
          notify_behavior: 'always',
          pages: [
            { url: membersUrl, headers: { Cookie: 'session=owner-cookie' } },
            { url: newsUrl },
          ],
          page_rule: { type: 'changed' },
        },
      });
      const api = new TaskApi(testApp);
      for (const next of [1, 2]) {
        version = next;
        const pending = await api.execute(owner, pageTask.id);
        await api.waitForExecution(owner, pageTask.id, pending.id);
      }
      ownerRuns = await api.executions(owner, pageTask.id);
    });

    afterAll(async () => {
      await pages.stop();
    });

    it('should show the owner what the pages held (the fixture really fetched with the cookie)', () => {
      expect(pages.requestsTo('/members')[0].headers.cookie).toBe('session=owner-cookie');
      expect(ownerRuns.map((run) => run.status)).toEqual(['success', 'success']);
      const [members] = ownerRuns[0].page_results as Array<Record<string, unknown>>;
      expect(members).toMatchObject({
        url: membersUrl,
        final_url: `${pages.origin}/members/home`,
        status: 'changed',
        title: secretTitle,
        added: [secretLine(2)],
        removed: [secretLine(1)],
      });
      expect(ownerRuns[0].reasoning).toContain(secretLine(2));
    });

    it('should show non-owners a page fetched with headers only by its url, status and http_status', async () => {
      for (const auth of [null, stranger.auth]) {
        const get = (path: string) => {
          const call = testApp.http.get(path).set('X-Forwarded-For', clientIp());
          return (auth ? call.set('Authorization', auth) : call).expect(200);
        };
        const listed = (await get(`/api/v1/tasks/${pageTask.id}/executions`))
          .body as ExecutionBody[];
        expect(listed.map((run) => run.id)).toEqual(ownerRuns.map((run) => run.id));
        listed.forEach(expectScrubbedRun);
        const task = (await get(`/api/v1/tasks/${pageTask.id}`)).body as TaskBody;
        expectScrubbedRun(task.last_execution as ExecutionBody);
        const viewed = (await get(`/api/v1/public/tasks/id/${pageTask.id}`)).body as TaskBody;
        expectScrubbedRun(viewed.last_execution as ExecutionBody);
        const listing = (await get('/api/v1/public/tasks?limit=100')).body as { tasks: TaskBody[] };
        const found = listing.tasks.find((candidate) => candidate.id === pageTask.id) as TaskBody;
        expectScrubbedRun(found.last_execution as ExecutionBody);
      }
    });

    it('should leave what the pages fetched with headers held out of the RSS feed', async () => {
      const feed = await testApp.http
        .get(`/tasks/${pageTask.id}/rss`)
        .set('X-Forwarded-For', clientIp())
        .expect(200);
      expect(feed.text).toContain(ownerRuns[0].id);
      expectNothingFetchedWithHeaders(feed.text);
    });

    it("should give another user's fork the pages without their headers and no runs", async () => {
      const fork = await testApp.http
        .post(`/api/v1/tasks/${pageTask.id}/fork`)
        .set('Authorization', stranger.auth)
        .send({})
        .expect(200);
      expect((fork.body as TaskBody).pages).toEqual([{ url: membersUrl }, { url: newsUrl }]);
      expect((fork.body as TaskBody).last_execution).toBeNull();
      expectNothingFetchedWithHeaders(fork.body);
    });
  });
});
