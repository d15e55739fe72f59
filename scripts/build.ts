/**
 * Builds the service into `dist/` (README, "Running it locally"): the server (`src/`) and its
 * migrations with TypeScript's build mode, each keeping a `.tsbuildinfo` in `dist/` so that a
 * later build compiles only the files that changed and what depends on them, and the console
 * (`console/build.ts`) when a file it is made from is newer than its `index.html`.
 *
 *   npx ts-node --transpile-only scripts/build.ts            # npm run build: all of it, afresh
 *   npx ts-node --transpile-only scripts/build.ts --changed  # before npm start: what changed
 *
 * With `--changed` it first checks that no running instance holds the embedded database's data
 * directory (`src/cli/check-data-dir.ts`), so a start that must fail leaves that instance's
 * `dist/` alone. The check runs compiled, from `dist/`, when the server's build is up to date:
 * it then costs a fraction of what compiling it on the fly would, on every start.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { buildConsoleWithinBudget } from '../console/build';
import type * as DataDirCheck from '../src/cli/check-data-dir';

const ROOT = join(__dirname, '..');
/** The server and its migrations: `tsBuildInfoFile` of each is in `dist/`. */
const SERVER_PROJECTS = ['tsconfig.build.json', 'tsconfig.migrations.json'];
/**
 * Each compiled folder, the folder of its sources, and what in it is not compiled from there
 * (another project's output, the console's bundle).
 */
const COMPILED_FOLDERS = [
  { output: 'dist/migrations', source: 'migrations', others: [] },
  { output: 'dist', source: 'src', others: ['migrations', 'console-assets'] },
];
/** What the console is made from; `package-lock.json` stands for the libraries it bundles. */
const CONSOLE_INPUTS = ['console/app', 'console/build.ts', 'package-lock.json'];
const CONSOLE_OUTPUT = 'dist/console-assets/index.html';

async function main(changedOnly: boolean): Promise<number> {
  if (!changedOnly) rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const server = serverBuilder();
  const serverStale = server.getNextInvalidatedProject() !== undefined;
  if (changedOnly) {
    // The compiled module exists, and is current, only once the server's build is up to date.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { checkDataDir } = require(
      serverStale ? '../src/cli/check-data-dir' : join(ROOT, 'dist', 'cli', 'check-data-dir.js'),
    ) as typeof DataDirCheck;
    if ((await checkDataDir()) !== 0) return 1;
  }
  if (serverStale) {
    if (server.build() !== ts.ExitStatus.Success) return 1;
    removeOrphanedOutputs(ROOT);
  }
  if (!changedOnly || isConsoleStale(ROOT)) console.log(await buildConsoleWithinBudget());
  return 0;
}

/** TypeScript's build mode for the server's projects, reporting errors as `tsc -b` does. */
function serverBuilder(): ts.SolutionBuilder<ts.EmitAndSemanticDiagnosticsBuilderProgram> {
  const formatHost: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => ts.sys.newLine,
  };
  const report = (diagnostic: ts.Diagnostic) =>
    process.stderr.write(ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost));
  const host = ts.createSolutionBuilderHost(ts.sys, undefined, report, report);
  return ts.createSolutionBuilder(
    host,
    SERVER_PROJECTS.map((project) => join(ROOT, project)),
    {},
  );
}

/**
 * Deletes the compiled files (`.js`, `.js.map`) whose source is gone, deleted or renamed since
 * the last build: the service loads its entities and migrations from `dist/` by pattern, so a
 * file left behind would still run. Returns them, relative to `root`.
 */
export function removeOrphanedOutputs(root: string): string[] {
  const removed: string[] = [];
  const visit = (output: string, source: string, others: readonly string[] = []) => {
    for (const entry of readdirSync(output, { withFileTypes: true })) {
      if (others.includes(entry.name)) continue;
      const path = join(output, entry.name);
      if (entry.isDirectory()) {
        visit(path, join(source, entry.name));
        continue;
      }
      const compiled = /\.js(\.map)?$/.exec(entry.name);
      if (!compiled) continue;
      const sourceFile = join(source, `${entry.name.slice(0, -compiled[0].length)}.ts`);
      if (existsSync(sourceFile)) continue;
      rmSync(path);
      removed.push(relative(root, path));
    }
  };
  for (const { output, source, others } of COMPILED_FOLDERS) {
    if (existsSync(join(root, output))) visit(join(root, output), join(root, source), others);
  }
  return removed;
}

/** Whether the console's `index.html` is missing or older than a file it is made from. */
export function isConsoleStale(root: string): boolean {
  const output = join(root, CONSOLE_OUTPUT);
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return CONSOLE_INPUTS.some((input) => lastChange(join(root, input)) > built);
}

/**
 * When a file, or a folder and anything in it, last changed (0 when missing). A folder's own
 * time moves when a file is added to it or removed from it.
 */
function lastChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce(
    (latest, name) => Math.max(latest, lastChange(join(path, name))),
    stats.mtimeMs,
  );
}

if (require.main === module) {
  main(process.argv.includes('--changed')).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
