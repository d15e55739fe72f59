import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/**
 * The console's API types (`console/app/api-types.ts`) and channel forms
 * (`console/app/channel-list.ts`) are written by console/generate.ts from the API document and
 * the channel registry (docs/console.md, "Generated files"): a change of either that is not
 * generated again fails here.
 */
describe('Console: generated files', () => {
  it('should match the API document and the channel registry when generated again', async () => {
    const result = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', 'console/generate.ts', '--check'],
      { cwd: ROOT },
    ).then(
      ({ stdout }) => ({ code: 0, output: stdout.trim() }),
      (error: { code?: number; stderr?: string }) => ({
        code: error.code,
        output: error.stderr?.trim(),
      }),
    );
    expect(result).toEqual({ code: 0, output: 'Up to date' });
  });
});
