import { createHash } from 'node:crypto';
import { expectDetail, expectValidationError } from '../support/errors';
import { Factory } from '../support/factory';
import { JwksServer } from '../support/jwks-server';
import {
  createTestDatabase,
  dropTestDatabase,
  startTestApp,
  type TestApp,
} from '../support/test-app';

describe('Authentication (API keys and identity-provider JWTs)', () => {
  let testApp: TestApp;
  let factory: Factory;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { ADMIN_EMAILS: 'boss@example.com' } });
    factory = new Factory(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('credentials', () => {
    it('should answer 401 "Authorization header missing" when no header is sent', async () => {
      expectDetail(await testApp.http.get('/auth/me'), 401, 'Authorization header missing');
    });

    it('should answer 401 "Authorization header missing" when the header is blank', async () => {
      expectDetail(
        await testApp.http.get('/auth/me').set('Authorization', ''),
        401,
        'Authorization header missing',
      );
    });

    it('should answer 401 naming the Bearer form when the scheme is not Bearer', async () => {
      const user = await factory.user();
      const key = user.auth.replace(/^Bearer /, '');
      for (const header of ['Basic abc', `Token ${key}`, key, 'Bearer']) {
        expectDetail(
          await testApp.http.get('/auth/me').set('Authorization', header),
          401,
          'Authorization header must be "Bearer <API key or JWT>"',
        );
      }
      // The scheme is compared whatever its case.
      await testApp.http.get('/auth/me').set('Authorization', `bEaReR ${key}`).expect(200);
    });

    it('should answer 401 "Invalid API key" when the key is malformed', async () => {
      expectDetail(
        await testApp.http.get('/auth/me').set('Authorization', 'Bearer sk_short'),
        401,
        'Invalid API key',
      );
      expectDetail(
        await testApp.http.get('/auth/me').set('Authorization', 'Bearer not-a-key'),
        401,
        'Invalid API key',
      );
    });

    it('should answer 401 "Invalid API key" when a well-formed key is not in the store', async () => {
      const unknown = `sk_${'A'.repeat(32)}`;
      expectDetail(
        await testApp.http.get('/auth/me').set('Authorization', `Bearer ${unknown}`),
        401,
        'Invalid API key',
      );
    });
  });

  describe('API keys', () => {
    it('should create a key shaped sk_ + 32 alphanumerics, store only its SHA-256, and show it once', async () => {
      const user = await factory.user();
      const created = await testApp.http
        .post('/auth/api-keys')
        .set('Authorization', user.auth)
        .send({ name: 'deploy' });
      expect(created.status).toBe(200);
      const body = created.body as Record<string, string>;
      expect(body.key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
      expect(body.key_prefix).toBe(`sk_...${body.key.slice(-5)}`);
      expect(body).toMatchObject({ name: 'deploy', state: 'active', last_used_at: null });
      expect(body.id).toMatch(/^[0-9a-f-]{36}$/);

      const stored = await testApp.db.query<{ key_hash: string }>(
        'SELECT key_hash FROM api_keys WHERE id = $1',
        [body.id],
      );
      expect(stored.rows[0].key_hash).toBe(createHash('sha256').update(body.key).digest('hex'));
      const everything = JSON.stringify(
        (await testApp.db.query('SELECT * FROM api_keys WHERE id = $1', [body.id])).rows,
      );
      expect(everything).not.toContain(body.key);

      const list = await testApp.http
        .get('/auth/api-keys')
        .set('Authorization', user.auth)
        .expect(200);
      const listed = (list.body as Array<Record<string, unknown>>).find(
        (key) => key.id === body.id,
      );
      expect(listed).toEqual({
        id: body.id,
        key_prefix: body.key_prefix,
        name: 'deploy',
        created_at: body.created_at,
        last_used_at: null,
        state: 'active',
      });
      expect(listed).not.toHaveProperty('key');
    });

    it('should show last_used_at in the list after the key is used', async () => {
      const user = await factory.user();
      await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
      const list = await testApp.http
        .get('/auth/api-keys')
        .set('Authorization', user.auth)
        .expect(200);
      const listed = (list.body as Array<{ id: string; last_used_at: string | null }>).find(
        (key) => key.id === user.apiKeyId,
      );
      expect(listed?.last_used_at).toEqual(expect.any(String));
      expect(Date.now() - Date.parse(listed?.last_used_at ?? '')).toBeLessThan(60_000);
    });

    it('should reject a revoked key on the very next request', async () => {
      const user = await factory.user();
      await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
      const revoked = await testApp.http
        .delete(`/auth/api-keys/${user.apiKeyId}`)
        .set('Authorization', `Bearer ${user.jwt}`);
      expect(revoked.status).toBe(200);
      expect((revoked.body as { message: string }).message).toMatch(/revoked/i);
      expectDetail(
        await testApp.http.get('/auth/me').set('Authorization', user.auth),
        401,
        'Invalid API key',
      );
      const list = await testApp.http
        .get('/auth/api-keys')
        .set('Authorization', `Bearer ${user.jwt}`)
        .expect(200);
      expect((list.body as Array<{ id: string }>).map((key) => key.id)).not.toContain(
        user.apiKeyId,
      );
    });

    it("should answer 404 when revoking another user's key or an unknown key", async () => {
      const owner = await factory.user();
      const stranger = await factory.user();
      expectDetail(
        await testApp.http
          .delete(`/auth/api-keys/${owner.apiKeyId}`)
          .set('Authorization', stranger.auth),
        404,
        'API key not found',
      );
      await testApp.http.get('/auth/me').set('Authorization', owner.auth).expect(200);
    });

    it('should answer 422 with loc ["path","id"] when the key id is not a UUID', async () => {
      const user = await factory.user();
      const response = await testApp.http
        .delete('/auth/api-keys/not-a-uuid')
        .set('Authorization', user.auth);
      expectValidationError(response, [{ type: 'uuid_parsing', loc: ['path', 'id'] }]);
    });

    it('should answer 422 "Field required" when the key name is missing', async () => {
      const user = await factory.user();
      const response = await testApp.http
        .post('/auth/api-keys')
        .set('Authorization', user.auth)
        .send({});
      expectValidationError(response, [
        { type: 'missing', loc: ['body', 'name'], msg: 'Field required' },
      ]);
    });

    it('should accept management calls with either credential type', async () => {
      const user = await factory.user();
      await testApp.http
        .get('/auth/api-keys')
        .set('Authorization', `Bearer ${user.jwt}`)
        .expect(200);
      await testApp.http.get('/auth/api-keys').set('Authorization', user.auth).expect(200);
      await testApp.http
        .post('/auth/api-keys')
        .set('Authorization', user.auth)
        .send({ name: 'second' })
        .expect(200);
    });
  });

  describe('identity-provider JWTs', () => {
    it('should create the user on sync-user and update the email on the next sync', async () => {
      const subject = 'user_sync_test';
      const first = await testApp.jwks.mint(subject, { email: 'first@example.com' });
      const created = await testApp.http
        .post('/auth/sync-user')
        .set('Authorization', `Bearer ${first}`);
      expect(created.status).toBe(200);
      expect(created.body).toEqual({
        id: expect.any(String),
        clerk_user_id: subject,
        email: 'first@example.com',
        state: 'active',
        created_at: expect.any(String),
      });
      const second = await testApp.jwks.mint(subject, { email: 'second@example.com' });
      const updated = await testApp.http
        .post('/auth/sync-user')
        .set('Authorization', `Bearer ${second}`)
        .expect(200);
      expect(updated.body).toMatchObject({
        id: (created.body as { id: string }).id,
        email: 'second@example.com',
      });
    });

    it('should answer /auth/me with id, email, state and created_at', async () => {
      const user = await factory.user();
      const me = await testApp.http.get('/auth/me').set('Authorization', user.auth).expect(200);
      expect(me.body).toEqual({
        id: user.id,
        email: user.email,
        state: 'active',
        created_at: expect.any(String),
      });
      const roles = await testApp.http
        .get('/auth/me/roles')
        .set('Authorization', user.auth)
        .expect(200);
      expect(roles.body).toEqual({ is_admin: false });
    });

    it('should answer 401 "Token has expired" for an expired JWT', async () => {
      const token = await testApp.jwks.mint('user_expired', { expiresInSeconds: -120 });
      expectDetail(
        await testApp.http.post('/auth/sync-user').set('Authorization', `Bearer ${token}`),
        401,
        'Token has expired',
      );
    });

    it('should answer 401 "Invalid token" for a JWT without exp', async () => {
      const token = await testApp.jwks.mint('user_no_exp', { expiresInSeconds: null });
      expectDetail(
        await testApp.http.get('/auth/me').set('Authorization', `Bearer ${token}`),
        401,
        'Invalid token',
      );
    });

    it('should answer 401 for a JWT signed by a key the JWKS does not publish', async () => {
      const token = await testApp.jwks.mint('user_forged', { foreignKey: true });
      expectDetail(
        await testApp.http.get('/auth/api-keys').set('Authorization', `Bearer ${token}`),
        401,
        'Invalid token',
      );
    });

    it('should answer 401 when the issuer or audience does not match', async () => {
      const wrongIssuer = await testApp.jwks.mint('user_iss', { issuer: 'https://evil.test' });
      const wrongAudience = await testApp.jwks.mint('user_aud', { audience: 'someone-else' });
      expectDetail(
        await testApp.http.get('/auth/api-keys').set('Authorization', `Bearer ${wrongIssuer}`),
        401,
        'Invalid token',
      );
      expectDetail(
        await testApp.http.get('/auth/api-keys').set('Authorization', `Bearer ${wrongAudience}`),
        401,
        'Invalid token',
      );
    });

    it('should refuse an API key on sync-user, which takes the JWT', async () => {
      const user = await factory.user();
      const response = await testApp.http.post('/auth/sync-user').set('Authorization', user.auth);
      expect(response.status).toBe(401);
    });
  });

  describe('roles and account state', () => {
    /** The status of an admin-only route: 200 for administrators, 403 for everyone else. */
    async function adminStatus(auth: string): Promise<number> {
      return (await testApp.http.get('/admin/stats').set('Authorization', auth)).status;
    }

    function bearer(token: string): string {
      return `Bearer ${token}`;
    }

    it('should give the admin role to a verified ADMIN_EMAILS address and to a JWT role claim, and not to others', async () => {
      const boss = await factory.user({ email: 'boss@example.com' });
      const claimed = await factory.user({ admin: true });
      const plain = await factory.user();
      expect(await adminStatus(boss.auth)).toBe(200);
      expect(await adminStatus(claimed.auth)).toBe(200);
      expect(await adminStatus(plain.auth)).toBe(403);
    });

    it('should say in /auth/me/roles that the caller is an administrator when it holds the role', async () => {
      const boss = await factory.user({ email: 'boss@example.com' });
      const claimed = await factory.user({ admin: true });
      for (const user of [boss, claimed]) {
        const roles = await testApp.http
          .get('/auth/me/roles')
          .set('Authorization', user.auth)
          .expect(200);
        expect(roles.body).toEqual({ is_admin: true });
      }
    });

    it('should not make an ADMIN_EMAILS address admin when the token says it is not verified', async () => {
      const pretender = await factory.user({ email: 'boss@example.com', emailVerified: false });
      expect(await adminStatus(pretender.auth)).toBe(403);
      expect(await adminStatus(bearer(pretender.jwt))).toBe(403);
    });

    it('should take the role away when a later token drops the verified email or the role claim', async () => {
      const boss = await factory.user({ email: 'boss@example.com' });
      expect(await adminStatus(boss.auth)).toBe(200);
      const unverified = await testApp.jwks.mint(boss.subject, {
        email: 'boss@example.com',
        emailVerified: false,
      });
      expect(await adminStatus(bearer(unverified))).toBe(403);
      expect(await adminStatus(boss.auth)).toBe(403); // the API key follows the latest token

      const claimed = await factory.user({ admin: true });
      expect(await adminStatus(claimed.auth)).toBe(200);
      const withoutClaim = await testApp.jwks.mint(claimed.subject, { email: claimed.email });
      expect(await adminStatus(bearer(withoutClaim))).toBe(403);
      expect(await adminStatus(claimed.auth)).toBe(403);
    });

    it("should answer 401 to a deactivated user's API key and JWT", async () => {
      const user = await factory.user();
      await testApp.db.query("UPDATE users SET state = 'deactivated' WHERE id = $1", [user.id]);
      expect((await testApp.http.get('/auth/me').set('Authorization', user.auth)).status).toBe(401);
      expect(
        (await testApp.http.get('/auth/api-keys').set('Authorization', `Bearer ${user.jwt}`))
          .status,
      ).toBe(401);
    });
  });
});

describe('Authentication configuration', () => {
  it('should answer 503 (client not initialized) to a JWT when no JWKS or key is configured', async () => {
    const testApp = await startTestApp({
      env: { JWT_JWKS_URL: '', JWT_ISSUER: '', JWT_AUDIENCE: '' },
    });
    try {
      const token = await testApp.jwks.mint('user_any');
      expectDetail(
        await testApp.http.post('/auth/sync-user').set('Authorization', `Bearer ${token}`),
        503,
        /not initialized/,
      );
    } finally {
      await testApp.close();
    }
  });

  it('should answer 503 when the JWKS cannot be fetched, whatever the reason', async () => {
    const testApp = await startTestApp();
    const missing = await startTestApp({
      jwks: testApp.jwks,
      env: { JWT_JWKS_URL: testApp.jwks.jwksUrl.replace('jwks.json', 'missing.json') },
    });
    try {
      const token = await testApp.jwks.mint('user_any');
      expectDetail(
        await missing.http.get('/auth/me').set('Authorization', `Bearer ${token}`),
        503,
        /keys are unavailable/,
      );
    } finally {
      await missing.close();
      await testApp.close();
    }
  });

  it('should check azp against JWT_AUTHORIZED_PARTIES when it is set', async () => {
    const testApp = await startTestApp({
      env: { JWT_AUTHORIZED_PARTIES: 'https://app.example,https://admin.example' },
    });
    try {
      const status = async (claims: Record<string, string>): Promise<number> => {
        const token = await testApp.jwks.mint(`user_azp_${Object.values(claims).join('')}`, {
          claims,
        });
        return (await testApp.http.post('/auth/sync-user').set('Authorization', `Bearer ${token}`))
          .status;
      };
      expect(await status({ azp: 'https://admin.example' })).toBe(200);
      expect(await status({ azp: 'https://evil.example' })).toBe(401);
      expect(await status({})).toBe(401);
    } finally {
      await testApp.close();
    }
  });

  it('should follow the current ADMIN_EMAILS and JWT_TRUST_EMAIL when the service restarts', async () => {
    const databaseUrl = await createTestDatabase();
    const jwks = await new JwksServer().start();
    const boot = (env: Record<string, string>) => startTestApp({ databaseUrl, jwks, env });
    const statusOn = async (app: TestApp, auth: string) =>
      (await app.http.get('/admin/stats').set('Authorization', auth)).status;
    try {
      const first = await boot({ ADMIN_EMAILS: 'chief@example.com' });
      const factory = new Factory(first);
      const chief = await factory.user({ email: 'chief@example.com' });
      const unverified = await factory.user({ email: 'chief@example.com', emailVerified: false });
      expect(await statusOn(first, chief.auth)).toBe(200);
      expect(await statusOn(first, unverified.auth)).toBe(403);
      await first.close();

      const dropped = await boot({ ADMIN_EMAILS: '' });
      expect(await statusOn(dropped, chief.auth)).toBe(403);
      await dropped.close();

      const trusting = await boot({ ADMIN_EMAILS: 'chief@example.com', JWT_TRUST_EMAIL: 'true' });
      expect(await statusOn(trusting, `Bearer ${unverified.jwt}`)).toBe(200);
      await trusting.close();
    } finally {
      await jwks.stop();
      await dropTestDatabase(databaseUrl);
    }
  });

  it('should verify JWTs against JWT_PUBLIC_KEY when it is set instead of a JWKS', async () => {
    const jwks = await new JwksServer().start();
    const testApp = await startTestApp({
      jwks,
      env: { JWT_JWKS_URL: '', JWT_PUBLIC_KEY: await jwks.publicKeyPem() },
    });
    try {
      const token = await jwks.mint('user_pem');
      await testApp.http
        .post('/auth/sync-user')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      const forged = await jwks.mint('user_pem', { foreignKey: true });
      expect(
        (await testApp.http.post('/auth/sync-user').set('Authorization', `Bearer ${forged}`))
          .status,
      ).toBe(401);
    } finally {
      await testApp.close();
      await jwks.stop();
    }
  });

  it('should act as the local admin user for every request when AUTH_DISABLED=true', async () => {
    const testApp = await startTestApp({ env: { AUTH_DISABLED: 'true' } });
    try {
      const me = await testApp.http.get('/auth/me').expect(200);
      expect((me.body as { email: string }).email).toBe('local@localhost');
      const role = await testApp.db.query<{ role: string }>(
        'SELECT role FROM users WHERE email = $1',
        ['local@localhost'],
      );
      expect(role.rows[0].role).toBe('admin');
    } finally {
      await testApp.close();
    }
  });
});
