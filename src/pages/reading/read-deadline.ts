import { readFileSync, readlinkSync } from 'node:fs';
import { procStatField } from '../../common/proc/proc-stat';

/** USER_HZ, the unit of the CPU times in /proc: 100 a second on every Linux architecture. */
const TICKS_PER_SECOND = 100;
/** The CPU times in /proc move in ticks: a deadline is not looked at again sooner than one. */
const TICK_MS = 1_000 / TICKS_PER_SECOND;

/**
 * A read that its thread cannot run, because the cores are busy with work of a higher priority,
 * is stopped at this many times `PAGE_READ_CPU_MS` from its start, whatever CPU it has had.
 */
export const READ_WALL_FACTOR = 3;

/** What a reading thread tells when it starts a read: its Linux thread id and CPU time then. */
export interface ReadStart {
  /** Null where there is no /proc: the deadline then counts time, not CPU. */
  tid: string | null;
  cpuMs: number;
}

/** The calling thread's Linux thread id, from /proc; null elsewhere. */
export function currentThreadId(): string | null {
  try {
    // `<pid>/task/<tid>`
    return readlinkSync('/proc/thread-self').split('/').pop() ?? null;
  } catch {
    return null;
  }
}

/**
 * The CPU time (user and system) thread `tid` of this process has had, from
 * /proc/self/task/<tid>/stat; null when there is no such thread (it ended) or no /proc.
 */
export function threadCpuMs(tid: string): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const ticks = Number(procStatField(stat, 14)) + Number(procStatField(stat, 15)); // utime, stime
  return (ticks * 1_000) / TICKS_PER_SECOND;
}

/** The CPU time a read's thread has had since the read started; null where it is unknown. */
export type CpuSince = (start: ReadStart) => number | null;

/** CPU time of the read's thread since the read started, from /proc. */
const cpuFromProc: CpuSince = (start) => {
  if (start.tid === null) return null;
  const now = threadCpuMs(start.tid);
  return now === null ? null : now - start.cpuMs;
};

/**
 * Calls `stop` once the read that `start` describes has had `budgetMs` of its thread's CPU time,
 * or `READ_WALL_FACTOR` times that since it started, whichever comes first; where its CPU time
 * is unknown, once `budgetMs` have passed (docs/pages.md, "Reading off the event loop"). It
 * looks no more often than needed: a thread cannot have had more CPU than the time that has
 * passed, so each look is put off until the budget could at the earliest be spent. Returns what
 * cancels it, once the read has ended.
 */
export function stopAtReadDeadline(
  start: ReadStart,
  budgetMs: number,
  stop: () => void,
  cpuSince: CpuSince = cpuFromProc,
): () => void {
  const startedAt = performance.now();
  const wallMs = budgetMs * READ_WALL_FACTOR;
  let timer: NodeJS.Timeout;
  const look = (): void => {
    const passed = performance.now() - startedAt;
    const spent = cpuSince(start) ?? passed;
    if (spent >= budgetMs || passed >= wallMs) return stop();
    timer = setTimeout(look, Math.max(TICK_MS, Math.min(budgetMs - spent, wallMs - passed)));
  };
  timer = setTimeout(look, budgetMs);
  return () => clearTimeout(timer);
}
