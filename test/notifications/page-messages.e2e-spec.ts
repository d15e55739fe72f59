import { randomUUID } from 'node:crypto';
import { Factory, type TestUser } from '../support/factory';
import { SmtpTestServer } from '../support/smtp-test-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { metExecution, queueDeliveries, waitForFinalDeliveries } from './notification-test-helpers';

const PAGE_RESULTS = [
  {
    url: 'https://shop.example/pricing',
    final_url: 'https://shop.example/pricing',
    status: 'changed',
    http_status: 200,
    title: 'Pricing <2026>',
    error: null,
    added: ['Pro plan: 19 €', 'Team plan: 49 €'],
    removed: ['Pro plan: 15 €'],
    fetched_at: '2026-02-03T04:05:00.000Z',
  },
  {
    url: 'https://shop.example/status',
    final_url: 'https://shop.example/status',
    status: 'error',
    http_status: 503,
    title: null,
    error: 'HTTP 503',
    added: [],
    removed: [],
    fetched_at: '2026-02-03T04:05:00.000Z',
  },
];

/**
 * The messages of a page task (docs/pages.md, "Notifications"): an execution arranged in the
 * database with its page results, delivered by the worker to a webhook, Slack and email.
 */
describe('Page task notifications', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let smtp: SmtpTestServer;
  let user: TestUser;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    smtp = await new SmtpTestServer().start();
    testApp = await startTestApp({ env: { SMTP_URL: smtp.url } });
    user = await new Factory(testApp).user();
  });

  afterAll(async () => {
    await testApp.close();
    await smtp.stop();
    await receiver.stop();
  });

  it('should carry page_results and verdict_execution_id and name the changed page in every message', async () => {
    const path = `/pages-${randomUUID()}`;
    const address = `pages-${randomUUID()}@example.com`;
    const { taskId, executionId } = await metExecution(testApp, user, [
      { type: 'webhook', url: `${receiver.url}${path}/webhook` },
      { type: 'slack', url: `${receiver.url}${path}/slack` },
      { type: 'email', address },
    ]);
    await testApp.db.query(
      `UPDATE executions SET page_results = $2::jsonb, verdict_execution_id = id WHERE id = $1`,
      [executionId, JSON.stringify(PAGE_RESULTS)],
    );
    await queueDeliveries(testApp, executionId, taskId, ['webhook', 'slack', 'email']);
    const deliveries = await waitForFinalDeliveries(testApp, taskId, 3);
    expect(deliveries.map((delivery) => delivery.state)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);

    const [webhook] = receiver.requestsTo(`${path}/webhook`);
    const execution = JSON.parse(webhook.body).data.execution;
    expect(execution.page_results).toEqual(PAGE_RESULTS);
    expect(execution.verdict_execution_id).toBe(executionId);

    const [slack] = receiver.requestsTo(`${path}/slack`);
    expect(JSON.stringify(JSON.parse(slack.body).blocks)).toContain(
      '*Changed pages*\\nPricing &lt;2026&gt; (https://shop.example/pricing)\\n2 lines added, 1 removed\\n+ Pro plan: 19 €\\n+ Team plan: 49 €\\n- Pro plan: 15 €',
    );

    const [email] = smtp.messagesTo(address);
    expect(email.text).toContain(
      'Changed pages:\nPricing <2026> (https://shop.example/pricing)\n2 lines added, 1 removed\n+ Pro plan: 19 €',
    );
    expect(email.html).toContain('<a href="https://shop.example/pricing">Pricing &lt;2026&gt;</a>');
    expect(email.text).not.toContain('shop.example/status');
  });
});
