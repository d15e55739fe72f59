import { Factory } from '../support/factory';
import { GeminiStandIn } from '../support/gemini-stand-in';
import {
  describeLockLoad,
  LOCK_LOAD_ENV,
  runLockConflictLoad,
  type LockLoadResult,
} from '../support/lock-conflict-load';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * No request answers 5xx because of a lock conflict, whatever runs at the same time, and
 * deactivation is final for the user's work (docs/architecture.md, "One lock order" and
 * "Deactivating a user"). Two instances on one database, mixed writes for a while (the long version
 * is `npm run bench lock-conflicts`).
 */
describe('Lock conflicts under mixed load (two instances, one database)', () => {
  let gemini: GeminiStandIn;
  let receiver: WebhookReceiver;
  let first: TestApp;
  let second: TestApp;
  let result: LockLoadResult;

  beforeAll(async () => {
    gemini = await new GeminiStandIn().start();
    receiver = await new WebhookReceiver().start();
    first = await startTestApp({ gemini, env: LOCK_LOAD_ENV });
    second = await startTestApp({
      gemini,
      env: LOCK_LOAD_ENV,
      databaseUrl: first.databaseUrl,
      jwks: first.jwks,
    });
    result = await runLockConflictLoad({
      targets: [first, second],
      factory: new Factory(first),
      db: first.db,
      gemini,
      receiver,
      durationMs: 12_000,
      clients: 12,
      users: 8,
      tasksPerUser: 4,
      deactivateEveryMs: 1_500,
    });
    console.log(`Lock conflict load: ${describeLockLoad(result)}`);
  }, 180_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await receiver.stop();
    await gemini.stop();
  });

  it('should answer no request with a 5xx when writes, checks and deliveries race', () => {
    expect(result.requests).toBeGreaterThan(200);
    expect(result.deactivated).toBeGreaterThan(0);
    expect(result.serverErrors).toEqual([]);
  });

  it('should leave no execution in flight once the work drained', () => {
    expect(result.inFlightAfterDrain).toBe(0);
  });

  it('should leave no queued check for a task of a deactivated user', () => {
    expect(result.deactivatedUsersQueuedTasks).toBe(0);
  });

  it('should never record a check as failed because its result lost a lock conflict', () => {
    expect(result.resultsLost).toBe(0);
  });

  it('should answer 404 to a test send whose task was deleted while the send was out', async () => {
    const factory = new Factory(first);
    const user = await factory.user();
    const task = await factory.task(user, {
      notifications: [{ type: 'webhook', url: `${receiver.url}/slow` }],
    });
    receiver.recordRequests = true;
    receiver.respondWith((request) => ({
      status: 200,
      body: 'ok',
      delayMs: request.path.startsWith('/slow') ? 1_000 : 0,
    }));
    const send = first.http
      .post(`/api/v1/tasks/${task.id}/notifications/test`)
      .set('Authorization', user.auth)
      .send({})
      .then((response) => response);
    await waitFor(async () => receiver.requestsTo('/slow').length > 0, { what: 'the test send' });
    await second.http
      .delete(`/api/v1/tasks/${task.id}`)
      .set('Authorization', user.auth)
      .expect(204);
    const response = await send;
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Task not found' });
  });
});
