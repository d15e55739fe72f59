import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { procStatField } from '../../common/proc/proc-stat';
import { CodedError } from '../../common/errors/coded-error';
import { DatabaseErrorCode } from '../database-error-code';
import { hasCode } from './file-system';
import { isAlive } from './postgres-server';

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
 * The data directory's lock file (`DATA_DIR_LOCK_FILE`), which makes one running instance of the
 * service the only user of the directory's PostgreSQL.
 */
export class DataDirectoryLock {
  private readonly lockFile: string;

  constructor(
    private readonly root: string,
    private readonly logger: { warn(message: string): void },
  ) {
    this.lockFile = join(root, DATA_DIR_LOCK_FILE);
  }

  /**
   * Makes this process the data directory's only user: the lock file is created with `wx`, so of
   * two starts only one can create it. A lock whose owner is alive fails this start at once (its
   * PostgreSQL is in use); one whose owner is gone (killed with SIGKILL) is taken over, and true
   * returned so that the PostgreSQL it left can be stopped.
   */
  async acquire(): Promise<boolean> {
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
   * Fails with `DataDirectoryInUseError`, as `acquire` would, when a running instance of the service
   * holds the data directory; takes no lock.
   */
  async assertNotInUse(): Promise<void> {
    const owner = await readLockOwner(this.lockFile);
    if (owner && (await isRunning(owner))) throw new DataDirectoryInUseError(this.root, owner.pid);
  }

  /** Removes the lock file if it is still this process's. */
  async release(): Promise<void> {
    const owner = await readLockOwner(this.lockFile);
    if (owner?.pid === process.pid) await rm(this.lockFile, { force: true });
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
    return procStatField(stat, 22) ?? null;
  } catch {
    return null;
  }
}
