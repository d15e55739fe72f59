import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) used so far by a process, from /proc (Linux only; 0 elsewhere). */
export function processCpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by every PostgreSQL server process on the machine. */
export function postgresCpuSeconds(): number {
  let total = 0;
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return 0;
  }
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes('(postgres)')) total += processCpuSeconds(Number(pid));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
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
