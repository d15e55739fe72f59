import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, ROOT, sleep } from './bench-support';

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

export interface RunningService {
  child: ChildProcess;
  port: number;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs the built service (`main.js`) as a separate process and waits until it is healthy. */
export async function startService(env: Record<string, string>): Promise<RunningService> {
  const port = await freePort();
  // BENCH_SERVICE_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`, profiles the service.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(BUILD_DIR, 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('service did not become healthy');
    await sleep(200);
  }
  return {
    child,
    port,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill(signal);
      await exited;
    },
  };
}
