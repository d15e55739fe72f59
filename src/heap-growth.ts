import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation of an API-only instance grow past what the last full
 * collection kept, in per cent: 100 lets a heap that keeps 55 MB reach 110 MB before the next
 * full collection. V8's own choice on a machine with several GiB is up to 300 per cent, and under
 * the API's load (answers in flight outlive two young-generation collections and are promoted)
 * that held 250 to 340 MB of RSS for garbage; with 100 the API stays near 220 MB. An instance
 * that runs the workers keeps V8's own choice: its bursts of checks, with pages or without, ran
 * 5 to 10 % slower with 100. Measured in BENCHMARKS.md, "API: memory under load";
 * docs/operations.md, "Memory", says how to choose another value.
 */
export const HEAP_GROWING_PERCENT = 100;

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * The V8 flag the service sets for itself at start-up: for an API-only instance
 * (`WORKER_ENABLED=false`), unless the command line already sets it
 * (`node --heap-growing-percent=<n> dist/main.js`), whose value stands.
 */
export function heapGrowthFlag(workerEnabled: boolean, execArgv: readonly string[]): string | null {
  if (workerEnabled || execArgv.some((argument) => FLAG.test(argument))) return null;
  return `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Sets the flag before the application is built. V8 reads it at each full collection, so it
 * holds from the next one on.
 */
export function limitHeapGrowth(workerEnabled: boolean): void {
  const flag = heapGrowthFlag(workerEnabled, process.execArgv);
  if (flag !== null) setFlagsFromString(flag);
}
