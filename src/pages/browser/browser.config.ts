import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { defineConfig, type ConfigOf } from '../../config/config-slice';
import type { EnvReader } from '../../config/env-reader';

/**
 * `BROWSER_PAGES_AT_ONCE` at most: each browser page takes a renderer process, some 100 MB or
 * more. The check's worst case counts on the most, a read for each turn (`READS_AT_ONCE`).
 */
export const MAX_BROWSER_PAGES_AT_ONCE = 16;
/**
 * Looked for on `PATH`, in this order, when `CHROMIUM_PATH` is not set. Chromium's headless shell
 * (Debian's `chromium-headless-shell`) comes first: the same engine without the full browser's
 * own layer, it reads a page with about a third of the CPU and half the memory.
 */
const CHROMIUM_NAMES = ['chromium-headless-shell', 'chromium', 'chromium-browser', 'google-chrome'];

/** Whether `path` names a file this process may execute. */
function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The first of `names` found as an executable file on `PATH`. */
function onPath(read: EnvReader, names: readonly string[]): string | null {
  const folders = (read.raw('PATH') ?? '').split(delimiter).filter((folder) => folder !== '');
  for (const name of names) {
    const found = folders.map((folder) => join(folder, name)).find(isExecutable);
    if (found !== undefined) return found;
  }
  return null;
}

/**
 * The Chromium the service starts itself (docs/pages.md, "Pages that need a browser"):
 * `CHROMIUM_PATH` when it names an executable file, else the first of CHROMIUM_NAMES on `PATH`.
 * A `CHROMIUM_PATH` naming no executable file counts as none, without a search.
 */
function chromiumPath(read: EnvReader): string | null {
  const given = read.optional('CHROMIUM_PATH');
  if (given !== null) return isExecutable(given) ? given : null;
  return onPath(read, CHROMIUM_NAMES);
}

export const browserConfig = defineConfig('browser', (read) => ({
  /** `BROWSER_WS_ENDPOINT`: a Playwright (`ws://.../playwright`) or DevTools websocket. */
  wsEndpoint: read.url('BROWSER_WS_ENDPOINT', ['ws:', 'wss:']),
  chromiumPath: chromiumPath(read),
  /**
   * util-linux's `chrt` on `PATH`, which starts that Chromium, and puts the page reading threads,
   * under the idle scheduling policy; without it, Chromium is started as it is and the threads
   * run at nice 10.
   */
  chrtPath: onPath(read, ['chrt']),
  /** `BROWSER_PAGES_AT_ONCE`: browser pages loading at once in one instance. */
  pagesAtOnce: read.integer('BROWSER_PAGES_AT_ONCE', 2, 1, MAX_BROWSER_PAGES_AT_ONCE),
  /**
   * `BROWSER_PROXY_HOST`: the address the egress proxy listens on and the browser is told to
   * use; a name or address the browser can reach (the service's name beside a browser container).
   */
  proxyHost: read.string('BROWSER_PROXY_HOST', '127.0.0.1'),
}));
export type BrowserConfig = ConfigOf<typeof browserConfig>;

/** Whether pages with `render: "browser"` can be read at all. */
export function hasBrowser(config: Pick<BrowserConfig, 'wsEndpoint' | 'chromiumPath'>): boolean {
  return config.wsEndpoint !== null || config.chromiumPath !== null;
}
