import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in per cent:
 * 100 lets a heap that keeps 55 MB reach 110 MB before the next full collection. V8's own choice
 * on a machine with several GiB is up to 300 per cent, and under the API's load (answers in
 * flight outlive two young-generation collections and are promoted) that held 250 to 340 MB of
 * RSS for garbage. Measured in BENCHMARKS.md, "API: memory under load": 100 keeps the service
 * near 220 MB with no loss of requests/s, checks/s or deliveries/s; 60 held less still but cost
 * checks a few per cent. docs/operations.md, "Memory", says how to choose another value.
 */
export const HEAP_GROWING_PERCENT = 100;

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * The V8 flag the service sets for itself at start-up, or null when the command line already
 * sets it (`node --heap-growing-percent=<n> dist/main.js`): the operator's value stands.
 */
export function heapGrowthFlag(execArgv: readonly string[]): string | null {
  return execArgv.some((argument) => FLAG.test(argument))
    ? null
    : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Sets the flag before the application is built. V8 reads it at each full collection, so it
 * holds from the next one on.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  const flag = heapGrowthFlag(execArgv);
  if (flag !== null) setFlagsFromString(flag);
}
