import { Factory, type TestUser } from '../support/factory';
import type { TaskBody } from '../tasks/task-api';
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
  let owner: TestUser;
  let stranger: TestUser;
  let secrets: OwnerSecrets;
  let task: TaskBody;
  let webhookSecret: string;
  const errorText = 'Upstream said 401 for key AIza-owner-private-key';

  beforeAll(async () => {
    testApp = await startTestApp({ env: { TRUST_PROXY: '1' } });
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
});
