import { randomBytes } from 'node:crypto';
import { Clock } from '../../src/common/clock/clock';
import { MINUTE_MS } from '../../src/common/rate-limit/rate-limit.throttlers';
import { Factory, type TestUser } from '../support/factory';
import type { TestApp } from '../support/test-app';
import type { TaskBody } from '../tasks/task-api';

/** Helpers shared by the sharing, public and admin specs. */

/** A valid username nobody else has. */
export function uniqueUsername(prefix = 'u'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

export async function setUsername(
  testApp: TestApp,
  user: TestUser,
  username = uniqueUsername(),
): Promise<string> {
  await testApp.http
    .patch('/api/v1/users/me/username')
    .set('Authorization', user.auth)
    .send({ username })
    .expect(200);
  return username;
}

/** The owner's private data a public view must never show. */
export interface OwnerSecrets {
  email: string;
  webhookUrl: string;
  headerName: string;
  headerValue: string;
}

export function ownerSecrets(): OwnerSecrets {
  const tag = randomBytes(4).toString('hex');
  return {
    email: `owner-${tag}@private.example.org`,
    webhookUrl: `http://127.0.0.1:9/hooks/owner-${tag}`,
    headerName: `X-Owner-Token-${tag}`,
    headerValue: `owner-header-secret-${tag}`,
  };
}

/** A public task of `owner` (who gets a username) with email and webhook notifications. */
export async function createPublicTask(
  testApp: TestApp,
  owner: TestUser,
  options: { secrets?: OwnerSecrets; body?: Record<string, unknown> } = {},
): Promise<TaskBody> {
  const secrets = options.secrets ?? ownerSecrets();
  const current = await testApp.db.query<{ username: string | null }>(
    'SELECT username FROM users WHERE id = $1',
    [owner.id],
  );
  if (!current.rows[0]?.username) await setUsername(testApp, owner);
  const task = await new Factory(testApp).task(owner, {
    notifications: [
      { type: 'email', address: secrets.email },
      {
        type: 'webhook',
        url: secrets.webhookUrl,
        headers: { [secrets.headerName]: secrets.headerValue },
      },
    ],
    ...options.body,
  });
  await testApp.http
    .patch(`/api/v1/tasks/${task.id}/visibility`)
    .set('Authorization', owner.auth)
    .send({ is_public: true })
    .expect(200);
  return { ...task, is_public: true };
}

/** A client address of its own, sent as X-Forwarded-For to an app running with TRUST_PROXY=1. */
export function clientIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

/** How many times `inOneWindow` runs a burst at most. */
const BURST_RUNS = 3;

/**
 * Per-IP limits count in fixed one-minute windows of the time the service reads (its `Clock`): a
 * burst that runs from one window into the next is split between two counts and proves nothing,
 * whether it passes or fails. Runs `burst` until one run starts and ends in one window, and
 * answers (or throws) what that run did. A run that crossed a boundary ended early in the next
 * window, so the next one fits unless a run takes half a minute. The window a run starts in may
 * hold the last run's requests: each run must be a client of its own (`clientIp()`), or clear the
 * counters it counts in first.
 */
export async function inOneWindow(testApp: TestApp, burst: () => Promise<void>): Promise<void> {
  const clock = testApp.app.get(Clock);
  const currentWindow = () => Math.floor(clock.now().getTime() / MINUTE_MS);
  for (let run = 1; run <= BURST_RUNS; run += 1) {
    const window = currentWindow();
    const failure = await burst().then(
      () => null,
      (error: unknown) => ({ error }),
    );
    if (currentWindow() !== window) continue;
    if (failure) throw failure.error;
    return;
  }
  throw new Error(`Each of ${BURST_RUNS} runs of the burst crossed a rate-limit window`);
}
