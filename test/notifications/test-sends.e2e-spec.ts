import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { expectRateLimited } from '../support/errors';
import { Factory, type TestUser } from '../support/factory';
import { FilteredPort } from '../support/filtered-port';
import { startTestApp, type TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { sendRows } from './notification-test-helpers';

/**
 * Test sends are requests to a host and port the user chose (docs/api.md, "Notifications"): limited
 * per user and hour, and their answers name the class of a failure only, so they cannot serve as a
 * port scanner.
 */
describe('Test sends', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let factory: Factory;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    // RATE_LIMIT_TEST_SENDS_PER_HOUR keeps its default (30).
    testApp = await startTestApp();
    factory = new Factory(testApp);
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });

  const testSend = (user: TestUser, taskId: string, auth = user.auth) =>
    testApp.http.post(`/api/v1/tasks/${taskId}/notifications/test`).set('Authorization', auth);

  it('should answer 429 to the 31st test send of a user in an hour, whatever the credential', async () => {
    const user = await factory.user();
    const path = `/limited-${randomUUID()}`;
    const task = await factory.task(user, {
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
    });
    for (let index = 0; index < 30; index += 1) {
      // The API key and the JWT count together.
      const auth = index % 2 === 0 ? user.auth : `Bearer ${user.jwt}`;
      const response = await testSend(user, task.id, auth);
      expect(response.status).toBe(200);
    }
    const limited = await testSend(user, task.id, `Bearer ${user.jwt}`);
    expectRateLimited(limited);
    expect(receiver.requestsTo(path)).toHaveLength(30);
    expect(await sendRows(testApp, task.id)).toHaveLength(30);

    // Other routes are not affected, and another user has a limit of their own.
    await testApp.http.get(`/api/v1/tasks/${task.id}`).set('Authorization', user.auth).expect(200);
    const other = await factory.user();
    const othersTask = await factory.task(other, {
      notifications: [{ type: 'webhook', url: `${receiver.url}${path}` }],
    });
    expect((await testSend(other, othersTask.id)).status).toBe(200);
  });

  it('should say connection failed for a closed and a filtered port alike, and timed out for a silent receiver', async () => {
    const user = await factory.user();
    const closed = await new WebhookReceiver().start();
    const closedUrl = `${closed.url}/closed`;
    await closed.stop();
    const filtered = await new FilteredPort().start();
    // Takes the connection and the request, never answers.
    const silent = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/silent`;
    try {
      const task = await factory.task(user, {
        notifications: [
          { type: 'webhook', url: closedUrl },
          { type: 'slack', url: `${filtered.url}/filtered` },
          { type: 'discord', url: silentUrl },
        ],
      });
      const response = await testSend(user, task.id).expect(200);
      expect(response.body).toEqual({
        results: [
          { notification_type: 'webhook', status: 'failed', error_message: 'connection failed' },
          { notification_type: 'slack', status: 'failed', error_message: 'connection failed' },
          { notification_type: 'discord', status: 'failed', error_message: 'timed out' },
        ],
      });
      const sends = await sendRows(testApp, task.id);
      expect(
        Object.fromEntries(sends.map((send) => [send.notification_type, send.error_message])),
      ).toEqual({ webhook: 'connection failed', slack: 'connection failed', discord: 'timed out' });
      for (const send of sends) expect(send.error_message).not.toMatch(/E[A-Z]{3,}|\d+\.\d+/);
    } finally {
      await filtered.stop();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 40_000);
});
