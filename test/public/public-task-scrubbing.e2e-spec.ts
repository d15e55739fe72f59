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
});
