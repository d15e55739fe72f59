import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, spawnService, type ServiceProcess } from './bench-support';

/**
 * The notifications benchmark compiles the service into a directory of its own (the same
 * `tsc -p tsconfig.build.json` that `npm run build` runs), so it never races another benchmark
 * or build over `dist/` on a shared machine.
 */
export const BUILD_DIR = join(ROOT, 'node_modules', '.cache', 'notifications-bench');

export function buildService(): void {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      BUILD_DIR,
    ],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
}

export type RunningService = ServiceProcess;

/** Runs this benchmark's build of the service and waits until it is healthy. */
export function startService(env: Record<string, string>): Promise<RunningService> {
  // BENCH_SERVICE_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`, profiles the service.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return spawnService(env, nodeArgs, join(BUILD_DIR, 'main.js'));
}
