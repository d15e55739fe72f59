import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `value` as one word of a POSIX shell command, whatever characters it holds. */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The executable a Chromium the service starts is started through (docs/pages.md, "Pages that
 * need a browser"): a script, in a folder of its own, that runs Chromium with its arguments under
 * Linux's idle scheduling policy (`chrt --idle 0`). Every process and thread Chromium starts
 * inherits the policy, and Chromium changes only nice values, which that policy leaves without
 * effect: Chromium gets the cores the service's own work leaves free. Where the policy cannot be
 * set (a sandbox that forbids it), Chromium is started as it is.
 */
export class IdleLauncher {
  private constructor(
    private readonly folder: string,
    readonly path: string,
  ) {}

  static async write(chrtPath: string, chromiumPath: string): Promise<IdleLauncher> {
    const folder = await mkdtemp(join(tmpdir(), 'page-browser-'));
    const path = join(folder, 'chromium');
    const [chrt, chromium] = [shellWord(chrtPath), shellWord(chromiumPath)];
    const script = [
      '#!/bin/sh',
      `if ${chrt} --idle 0 true >/dev/null 2>&1; then exec ${chrt} --idle 0 ${chromium} "$@"; fi`,
      `exec ${chromium} "$@"`,
      '',
    ].join('\n');
    await writeFile(path, script, { mode: 0o700 });
    return new IdleLauncher(folder, path);
  }

  async remove(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
  }
}
