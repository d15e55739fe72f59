/**
 * `npm run bench`: builds the service, then runs every benchmark in turn; each writes its own
 * section of BENCHMARKS.md. Set DATABASE_URL to use an existing PostgreSQL server (its user must
 * be allowed to create databases); without it each benchmark starts an embedded one.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './bench-support';

const BENCHMARKS = [
  'checks-bench.ts',
  'checks-crash.ts',
  'notifications-bench.ts',
  'notifications-mixed-crash.ts',
  'digests-bench.ts',
  'api-bench.ts',
  'providers-bench.ts',
  'lock-conflicts-bench.ts',
  'console-bench.ts',
  'redaction-bench.ts',
  'pages-bench.ts',
  'attention-bench.ts',
  'pages-checks-bench.ts',
  'hostile-pages-bench.ts',
  'page-values-bench.ts',
  'browser-pages-bench.ts',
];

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: process.env });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

run('npm', ['run', 'build']);
const only = process.argv.slice(2);
for (const file of BENCHMARKS.filter(
  (name) => only.length === 0 || only.some((part) => name.includes(part)),
)) {
  console.log(`\n### ${file}\n`);
  run(process.execPath, [
    join(ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js'),
    '--transpile-only',
    join('bench', file),
  ]);
}
