import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { IdleLauncher } from './idle-launcher';

describe('IdleLauncher', () => {
  const folder = mkdtempSync(join(tmpdir(), 'idle-launcher-'));
  const script = (path: string, body: string): string => {
    writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o700 });
    return path;
  };
  // A Chromium stand-in in a folder whose name a shell would expand, printing its arguments.
  mkdirSync(join(folder, "it's a $HOME `browser`"));
  const chromium = script(
    join(folder, "it's a $HOME `browser`", 'chromium'),
    'for word in "$@"; do echo "$word"; done',
  );
  const args = ['--headless', 'two words', "it's"];
  const launched = async (launcher: IdleLauncher) =>
    (await promisify(execFile)(launcher.path, args)).stdout.split('\n').slice(0, -1);

  it('should start Chromium through chrt --idle 0 with every argument as given, and be removable', async () => {
    const chrt = script(join(folder, "chrt 'stand-in'"), 'echo "chrt $1 $2"; shift 2; exec "$@"');
    const launcher = await IdleLauncher.write(chrt, chromium);
    expect(await launched(launcher)).toEqual(['chrt --idle 0', ...args]);
    await launcher.remove();
    expect(existsSync(launcher.path)).toBe(false);
  });

  it('should start Chromium as it is where chrt cannot set the policy', async () => {
    const refusing = script(join(folder, 'chrt-refusing'), 'echo refused >&2; exit 1');
    const launcher = await IdleLauncher.write(refusing, chromium);
    expect(await launched(launcher)).toEqual(args);
    await launcher.remove();
  });
});
