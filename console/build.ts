/**
 * Builds the web console (README, "Console"): `console/app/` bundled by esbuild into hashed
 * files under `dist/console-assets/assets/`, and an `index.html` that references them (no inline
 * script or style, so the Content-Security-Policy can stay `default-src 'self'`). Run by
 * scripts/build.ts (`npm run build`, and `npm start` when the console changed); the console's
 * end-to-end tests call `buildConsole()` themselves.
 */
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_ASSETS_DIR } from '../src/console/console-assets';

const SOURCE_DIR = join(__dirname, 'app');
/** Issue 21, "Speed": the console's JavaScript, gzipped. */
export const SCRIPT_GZIP_LIMIT_BYTES = 150 * 1024;

export interface ConsoleBuild {
  script: string;
  stylesheet: string;
  scriptGzipBytes: number;
}

export async function buildConsole(outDir = CONSOLE_ASSETS_DIR): Promise<ConsoleBuild> {
  await rm(outDir, { recursive: true, force: true });
  const result = await build({
    entryPoints: [
      { in: join(SOURCE_DIR, 'main.tsx'), out: 'app' },
      { in: join(SOURCE_DIR, 'styles.css'), out: 'app' },
    ],
    outdir: join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2022', 'chrome111', 'firefox113', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(SOURCE_DIR, 'tsconfig.json'),
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = outputs.find((name) => name.endsWith('.js'));
  const stylesheet = outputs.find((name) => name.endsWith('.css'));
  if (!script || !stylesheet) throw new Error(`console build wrote ${outputs.join(', ')}`);
  const template = await readFile(join(SOURCE_DIR, 'index.html'), 'utf8');
  await writeFile(
    join(outDir, 'index.html'),
    template
      .replace('{{script}}', `/console/assets/${script}`)
      .replace('{{stylesheet}}', `/console/assets/${stylesheet}`),
  );
  const scriptGzipBytes = gzipSync(await readFile(join(outDir, 'assets', script))).length;
  return { script, stylesheet, scriptGzipBytes };
}

/**
 * The console as a release ships it (`npm run build`, scripts/build.ts): `buildConsole()`, failing
 * when the script passes its gzip budget. Answers the line that says what was built.
 */
export async function buildConsoleWithinBudget(): Promise<string> {
  const { script, scriptGzipBytes } = await buildConsole();
  const kilobytes = (scriptGzipBytes / 1024).toFixed(1);
  if (scriptGzipBytes > SCRIPT_GZIP_LIMIT_BYTES) {
    throw new Error(`console: ${script} is ${kilobytes} kB gzipped, over the 150 kB budget`);
  }
  return `console: ${script} ${kilobytes} kB gzipped`;
}
