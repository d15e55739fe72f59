import { randomUUID } from 'node:crypto';
import type { TestApp } from './test-app';

export interface TestUser {
  id: string;
  subject: string;
  email: string;
  jwt: string;
  apiKey: string;
  apiKeyId: string;
  /** `Authorization` header value using the API key */
  auth: string;
}

/** Small builders for test data, made through the real API. */
export class Factory {
  constructor(private readonly testApp: TestApp) {}

  /** A user signed in through the identity provider, with one API key. */
  async user(options: { email?: string; admin?: boolean; emailVerified?: boolean } = {}): Promise<TestUser> {
    const subject = `user_${randomUUID()}`;
    const email = options.email ?? `${subject}@example.com`;
    const jwt = await this.testApp.jwks.mint(subject, {
      email,
      emailVerified: options.emailVerified,
      claims: options.admin ? { role: 'admin' } : undefined,
    });
    const synced = await this.testApp.http
      .post('/auth/sync-user')
      .set('Authorization', `Bearer ${jwt}`)
      .expect(200);
    const created = await this.testApp.http
      .post('/auth/api-keys')
      .set('Authorization', `Bearer ${jwt}`)
      .send({ name: 'test key' })
      .expect(200);
    const body = created.body as { key: string; id: string };
    return {
      id: (synced.body as { id: string }).id,
      subject,
      email,
      jwt,
      apiKey: body.key,
      apiKeyId: body.id,
      auth: `Bearer ${body.key}`,
    };
  }
}
