import { readdirSync, readFileSync } from 'node:fs';
import { procStatField } from '../src/common/proc/proc-stat';

/** CPU seconds (user + system) used so far by a process, from /proc (Linux only; 0 elsewhere). */
export function processCpuSeconds(pid: number | undefined): number {
  return pid ? statCpuSeconds(`/proc/${pid}/stat`) : 0;
}

/** CPU seconds used so far by a process's main thread (its JavaScript event loop, for Node). */
export function mainThreadCpuSeconds(pid: number | undefined): number {
  return pid ? statCpuSeconds(`/proc/${pid}/task/${pid}/stat`) : 0;
}

function statCpuSeconds(path: string): number {
  try {
    const stat = readFileSync(path, 'utf8');
    return (Number(procStatField(stat, 14)) + Number(procStatField(stat, 15))) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used so far by the PostgreSQL server listening on `port` (its postmaster and every
 * backend it forked); other PostgreSQL servers on a shared machine are not counted. Processes
 * that ended meanwhile drop out, so take differences over a run only.
 */
export function postgresCpuSeconds(port: number): number {
  const processes: Array<{ pid: number; parent: number; command: string }> = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return 0;
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const parent = Number(procStatField(stat, 4));
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      processes.push({ pid: Number(entry), parent, command });
    } catch {
      // the process ended meanwhile
    }
  }
  const postmaster = processes.find((process) =>
    new RegExp(`(^|\\s)-p\\s+${port}(\\s|$)`).test(process.command),
  );
  if (!postmaster) return 0;
  return processes
    .filter((process) => process.pid === postmaster.pid || process.parent === postmaster.pid)
    .reduce((sum, process) => sum + processCpuSeconds(process.pid), 0);
}

/** Resident memory of a process in KiB, from /proc (0 when unavailable). */
export function rssKb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}
