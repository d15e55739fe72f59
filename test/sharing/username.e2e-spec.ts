import { expectDetail, expectValidationError } from '../support/errors';
import { Factory } from '../support/factory';
import { startTestApp, type TestApp } from '../support/test-app';
import { uniqueUsername } from './sharing-fixtures';

describe('Usernames', () => {
  let testApp: TestApp;
  let factory: Factory;

  beforeAll(async () => {
    testApp = await startTestApp();
    factory = new Factory(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  function claim(auth: string, username: unknown) {
    return testApp.http
      .patch('/api/v1/users/me/username')
      .set('Authorization', auth)
      .send({ username });
  }

  function availability(auth: string, username: string) {
    return testApp.http
      .get('/api/v1/users/username/available')
      .set('Authorization', auth)
      .query({ username });
  }

  describe('PATCH /api/v1/users/me/username', () => {
    it('should set the username and answer {username, updated: true}', async () => {
      const user = await factory.user();
      const username = uniqueUsername('ada_');
      const response = await claim(user.auth, username);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ username, updated: true });
      const stored = await testApp.db.query<{ username: string }>(
        'SELECT username FROM users WHERE id = $1',
        [user.id],
      );
      expect(stored.rows[0].username).toBe(username);
    });

    it('should accept a JWT caller as well as an API key', async () => {
      const user = await factory.user();
      const response = await claim(`Bearer ${user.jwt}`, uniqueUsername());
      expect(response.status).toBe(200);
    });

    it('should accept 3 and 30 characters, digits, "_" and "-" after a leading letter', async () => {
      for (const username of ['abc', `z${'9'.repeat(29)}`, 'a-b_c9']) {
        const user = await factory.user();
        await testApp.db.query('UPDATE users SET username = NULL WHERE username = $1', [username]);
        expect((await claim(user.auth, username)).body).toEqual({ username, updated: true });
      }
    });

    it('should answer 400 when a different username is sent once one is set', async () => {
      const user = await factory.user();
      const first = uniqueUsername();
      await claim(user.auth, first).expect(200);
      expectDetail(
        await claim(user.auth, uniqueUsername()),
        400,
        'Username cannot be changed once it is set',
      );
      const stored = await testApp.db.query<{ username: string }>(
        'SELECT username FROM users WHERE id = $1',
        [user.id],
      );
      expect(stored.rows[0].username).toBe(first);
    });

    it('should answer 200 again when the username already set is sent again (a safe retry)', async () => {
      const user = await factory.user();
      const username = uniqueUsername();
      await claim(user.auth, username).expect(200);
      const again = await claim(user.auth, username);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ username, updated: true });
    });

    it('should answer 409 when another user has the username', async () => {
      const first = await factory.user();
      const second = await factory.user();
      const username = uniqueUsername();
      await claim(first.auth, username).expect(200);
      expectDetail(await claim(second.auth, username), 409, 'Username is already taken');
      const stored = await testApp.db.query<{ username: string | null }>(
        'SELECT username FROM users WHERE id = $1',
        [second.id],
      );
      expect(stored.rows[0].username).toBeNull();
    });

    it('should give the name to exactly one of two users claiming it at the same moment', async () => {
      const users = await Promise.all([factory.user(), factory.user(), factory.user()]);
      const username = uniqueUsername();
      const responses = await Promise.all(users.map((user) => claim(user.auth, username)));
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409]);
      const owners = await testApp.db.query('SELECT id FROM users WHERE username = $1', [username]);
      expect(owners.rowCount).toBe(1);
    });

    it('should keep exactly one of two names one user sends at the same moment', async () => {
      const user = await factory.user();
      const names = [uniqueUsername(), uniqueUsername()];
      const responses = await Promise.all(names.map((username) => claim(user.auth, username)));
      expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
      const winner = names[responses.findIndex((response) => response.status === 200)];
      const stored = await testApp.db.query<{ username: string }>(
        'SELECT username FROM users WHERE id = $1',
        [user.id],
      );
      expect(stored.rows[0].username).toBe(winner);
    });

    it.each([
      'admin',
      'api',
      'root',
      'support',
      'system',
      'public',
      'null',
      'undefined',
      'help',
      'www',
      'monitor',
      'tasks',
    ])('should answer 409 "Username is reserved" for %s', async (username) => {
      const user = await factory.user();
      expectDetail(await claim(user.auth, username), 409, 'Username is reserved');
    });

    it('should answer 400 (not 409) for a reserved name when a username is already set', async () => {
      const user = await factory.user();
      await claim(user.auth, uniqueUsername()).expect(200);
      expectDetail(
        await claim(user.auth, 'admin'),
        400,
        'Username cannot be changed once it is set',
      );
    });

    it('should reject uppercase rather than lowercase it (422, pattern)', async () => {
      const user = await factory.user();
      expectValidationError(await claim(user.auth, 'AdaLovelace'), [
        {
          type: 'string_pattern_mismatch',
          loc: ['body', 'username'],
          msg: "String should match pattern '^[a-z][a-z0-9_-]*$'",
        },
      ]);
      const stored = await testApp.db.query<{ username: string | null }>(
        'SELECT username FROM users WHERE id = $1',
        [user.id],
      );
      expect(stored.rows[0].username).toBeNull();
    });

    it.each([
      ['1abc', 'string_pattern_mismatch'],
      ['_abc', 'string_pattern_mismatch'],
      ['ab c', 'string_pattern_mismatch'],
      ['abc.def', 'string_pattern_mismatch'],
      ['abcé', 'string_pattern_mismatch'],
      ['ab', 'string_too_short'],
      [`a${'b'.repeat(30)}`, 'string_too_long'],
    ])('should answer 422 for %j (%s)', async (username, type) => {
      const user = await factory.user();
      expectValidationError(await claim(user.auth, username), [
        { type, loc: ['body', 'username'] },
      ]);
    });

    it('should answer 422 when username is missing or not a string', async () => {
      const user = await factory.user();
      expectValidationError(
        await testApp.http
          .patch('/api/v1/users/me/username')
          .set('Authorization', user.auth)
          .send({}),
        [{ type: 'missing', loc: ['body', 'username'], msg: 'Field required' }],
      );
      expectValidationError(await claim(user.auth, 12345), [
        { type: 'string_type', loc: ['body', 'username'] },
      ]);
    });

    it('should answer 401 without credentials', async () => {
      expectDetail(
        await testApp.http.patch('/api/v1/users/me/username').send({ username: uniqueUsername() }),
        401,
        'Authorization header missing',
      );
    });
  });

  describe('GET /api/v1/users/username/available', () => {
    it('should answer true for a free name and false once it is taken', async () => {
      const user = await factory.user();
      const other = await factory.user();
      const username = uniqueUsername();
      expect((await availability(other.auth, username).expect(200)).body).toEqual({
        available: true,
      });
      await claim(user.auth, username).expect(200);
      expect((await availability(other.auth, username).expect(200)).body).toEqual({
        available: false,
      });
      expect((await availability(user.auth, username).expect(200)).body).toEqual({
        available: false,
      });
    });

    it('should answer false for reserved and malformed names instead of an error', async () => {
      const user = await factory.user();
      for (const username of ['admin', 'support', 'Ada', 'ab', '1abc', 'a'.repeat(31), 'a b']) {
        const response = await availability(user.auth, username);
        expect({ username, status: response.status, body: response.body }).toEqual({
          username,
          status: 200,
          body: { available: false },
        });
      }
    });

    it('should answer 422 when the username parameter is missing', async () => {
      const user = await factory.user();
      const response = await testApp.http
        .get('/api/v1/users/username/available')
        .set('Authorization', user.auth);
      expectValidationError(response, [{ type: 'missing', loc: ['query', 'username'] }]);
    });

    it('should answer 401 without credentials', async () => {
      expectDetail(
        await testApp.http.get('/api/v1/users/username/available').query({ username: 'someone' }),
        401,
        'Authorization header missing',
      );
    });
  });
});
