import { randomBytes } from 'node:crypto';
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

/**
 * Per-IP limits use fixed one-minute windows: a burst started in the last seconds of a minute
 * would straddle two windows. Waits for the next minute when that is the case.
 */
export async function startOfFreshWindow(marginMs = 8_000): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 60_000 - marginMs) {
    await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
  }
}
