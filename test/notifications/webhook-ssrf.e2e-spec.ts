import { randomUUID } from 'node:crypto';
import { expectDetail } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import {
  answerByQuery,
  createTask,
  sendRows,
  waitForSettledDeliveries,
  waitForFinalDeliveries,
} from './notification-test-helpers';

/** The SSRF guard as production runs it: WEBHOOK_ALLOW_PRIVATE_NETWORKS=false. */
describe('Webhook SSRF guard', () => {
  let testApp: TestApp;
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;
  let user: TestUser;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    receiver = await new WebhookReceiver().start();
    testApp = await startTestApp({
      gemini,
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_RETRY_SCHEDULE: '100ms,100ms' },
    });
    user = await new Factory(testApp).user();
    answerByQuery(gemini);
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
    await gemini.stop();
  });

  const blocked = () => [
    `${receiver.url}/hook`,
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://192.168.1.10/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    // IPv6 forms that embed or translate to a refused IPv4 address.
    'http://[::ffff:0:7f00:1]/',
    'http://[::7f00:1]/',
    'http://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/',
    'http://[2002:7f00:1::]/',
    'http://[2001::5601:5601]/',
    `http://localhost:${receiver.port}/hook`,
  ];

  it('should refuse private, loopback and metadata destinations when a task is created', async () => {
    for (const url of blocked()) {
      const response = await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', user.auth)
        .send({ search_query: 'ssrf guard on create', notifications: [{ type: 'webhook', url }] });
      expectDetail(
        response,
        400,
        /^Invalid notification: url .+ resolves to a private or reserved address \(private and local addresses are refused; set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow them\)$/,
      );
    }
  });

  it('should refuse them when a task is updated', async () => {
    const created = await testApp.http
      .post('/api/v1/tasks')
      .set('Authorization', user.auth)
      .send({ search_query: 'ssrf guard on update', state: 'paused' })
      .expect(200);
    const id = (created.body as { id: string }).id;
    for (const url of blocked()) {
      const response = await testApp.http
        .put(`/api/v1/tasks/${id}`)
        .set('Authorization', user.auth)
        .send({ notifications: [{ type: 'webhook', url }] });
      expectDetail(
        response,
        400,
        /^Invalid notification: url .+ private or reserved address \(private and local addresses are refused; set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow them\)$/,
      );
    }
    const task = await testApp.http
      .get(`/api/v1/tasks/${id}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(task.body.notifications).toEqual([]);
  });

  it('should refuse a stored private destination at delivery time without retrying', async () => {
    const path = `/bypassed-${randomUUID()}`;
    const task = await createTask(testApp, user, { state: 'paused' });
    // A config that never went through validation (written before a policy change, say).
    await testApp.db.query(`UPDATE tasks SET notifications = $2::jsonb WHERE id = $1`, [
      task.id,
      JSON.stringify([
        {
          type: 'webhook',
          url: `http://localhost:${receiver.port}${path}`,
          method: 'POST',
          headers: {},
          secret: `whsec_${Buffer.from(randomUUID()).toString('base64')}`,
        },
      ]),
    ]);
    await testApp.http
      .post(`/api/v1/tasks/${task.id}/execute`)
      .set('Authorization', user.auth)
      .expect(200);
    const [delivery] = await waitForFinalDeliveries(testApp, task.id, 1);
    expect(delivery).toMatchObject({ state: 'failed', attempt: 1 });
    await waitForSettledDeliveries(testApp, task.id);
    const sends = await sendRows(testApp, task.id);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({
      status: 'failed',
      recipient: `http://localhost:${receiver.port}/****`,
    });
    expect(sends[0].error_message).toBe(
      'Refused: localhost resolves to a private or reserved address ' +
        '(private and local addresses are refused; set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow them)',
    );
    expect(receiver.requestsTo(path)).toHaveLength(0);
  });
});
