import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expectDetail } from '../support/errors';
import { JwksServer } from '../support/jwks-server';
import {
  createTestDatabase,
  dropTestDatabase,
  startTestApp,
  type TestApp,
} from '../support/test-app';

const ROOT = join(__dirname, '..', '..');

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run create-key -- <args>` as its source (the build runs the compiled file). */
function createKey(args: string[], env: Record<string, string>): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src/cli/create-key.ts'), ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function keysIn(text: string): string[] {
  return text.match(/sk_[A-Za-z0-9]{32}/g) ?? [];
}

/** README, "Authentication": a user and a key against the configured database, no JWT needed. */
describe('npm run create-key', () => {
  let databaseUrl: string;
  let jwks: JwksServer;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    jwks = await new JwksServer().start();
  });

  afterAll(async () => {
    await jwks.stop();
    await dropTestDatabase(databaseUrl);
  });

  it('should create a user and an API key on a fresh database that then opens the API', async () => {
    // The database is empty: the command applies the migrations itself.
    const made = await createKey(['--email', 'Owner@Example.com', '--name', 'laptop'], {
      DATABASE_URL: databaseUrl,
    });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const [key] = keysIn(made.stdout);
    expect(keysIn(made.stdout)).toEqual([key]);
    expect(made.stdout).toContain('owner@example.com');

    const admin = await createKey(['--email', 'root@example.com', '--admin'], {
      DATABASE_URL: databaseUrl,
    });
    expect(admin.code).toBe(0);
    const [adminKey] = keysIn(admin.stdout);

    const again = await createKey(['--email', 'owner@example.com'], { DATABASE_URL: databaseUrl });
    expect(again.code).toBe(0);
    const [secondKey] = keysIn(again.stdout);

    const testApp: TestApp = await startTestApp({ databaseUrl, jwks });
    try {
      const me = await testApp.http
        .get('/auth/me')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      expect(me.body).toMatchObject({ email: 'owner@example.com', state: 'active' });
      const second = await testApp.http
        .get('/auth/me')
        .set('Authorization', `Bearer ${secondKey}`)
        .expect(200);
      // The same email: the same user, one more key.
      expect((second.body as { id: string }).id).toBe((me.body as { id: string }).id);
      const keys = await testApp.http
        .get('/auth/api-keys')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      expect((keys.body as Array<{ name: string }>).map((entry) => entry.name).sort()).toEqual([
        'API key',
        'laptop',
      ]);
      expectDetail(
        await testApp.http.get('/admin/stats').set('Authorization', `Bearer ${key}`),
        403,
        'Admin access required',
      );
      await testApp.http.get('/admin/stats').set('Authorization', `Bearer ${adminKey}`).expect(200);
      await testApp.http
        .post('/api/v1/tasks')
        .set('Authorization', `Bearer ${key}`)
        .send({ search_query: 'Works with a key made by the command', state: 'paused' })
        .expect(200);
    } finally {
      await testApp.close();
    }
  });

  it('should name the reactivation route for a deactivated user, and make a key once the user is reactivated', async () => {
    const made = await createKey(['--email', 'gone@example.com'], { DATABASE_URL: databaseUrl });
    expect(made.code).toBe(0);
    const userId = /, user ([0-9a-f-]{36})\./.exec(made.stdout)?.[1];
    const admin = await createKey(['--email', 'boss@example.com', '--admin'], {
      DATABASE_URL: databaseUrl,
    });
    const [adminKey] = keysIn(admin.stdout);
    const testApp: TestApp = await startTestApp({ databaseUrl, jwks });
    try {
      const asAdmin = (action: string) =>
        testApp.http
          .patch(`/admin/users/${userId}/${action}`)
          .set('Authorization', `Bearer ${adminKey}`)
          .expect(200);
      await asAdmin('deactivate');

      const refused = await createKey(['--email', 'gone@example.com'], {
        DATABASE_URL: databaseUrl,
      });
      expect(refused).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'create-key failed: The user gone@example.com is deactivated. An administrator can ' +
          `reactivate them with PATCH /admin/users/${userId}/reactivate, then run this again.\n`,
      });

      await asAdmin('reactivate');
      const again = await createKey(['--email', 'gone@example.com'], {
        DATABASE_URL: databaseUrl,
      });
      expect(again.code).toBe(0);
      const [key] = keysIn(again.stdout);
      const me = await testApp.http.get('/auth/me').set('Authorization', `Bearer ${key}`);
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: userId, state: 'active' });
    } finally {
      await testApp.close();
    }
  });

  it('should refuse to run without a valid --email, saying how to call it', async () => {
    for (const args of [[], ['--email'], ['--email', 'not-an-email'], ['--bogus']]) {
      const result = await createKey(args, { DATABASE_URL: databaseUrl });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/--email/);
      expect(keysIn(result.stdout)).toEqual([]);
    }
  });

  it('should stop with the configuration error when the environment is invalid', async () => {
    const result = await createKey(['--email', 'a@example.com'], {
      DATABASE_URL: 'mysql://nowhere',
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/DATABASE_URL/);
  });
});
