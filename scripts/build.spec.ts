import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isConsoleStale, removeOrphanedOutputs } from './build';

describe('the build', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Writes `path` under the root, last changed `secondsAgo` seconds ago. */
  function file(path: string, secondsAgo = 0): void {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, '');
    const time = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(full, time, time);
  }

  describe('removeOrphanedOutputs', () => {
    it('should delete the compiled files whose source is gone, and keep the rest', () => {
      for (const path of [
        'src/main.ts',
        'src/tasks/task.entity.ts',
        'migrations/1-Initial.ts',
        'dist/main.js',
        'dist/main.js.map',
        'dist/tasks/task.entity.js',
        'dist/tasks/old.entity.js',
        'dist/tasks/old.entity.js.map',
        'dist/migrations/1-Initial.js',
        'dist/migrations/2-Renamed.js',
        'dist/console-assets/assets/app-HASH.js',
        'dist/tsconfig.build.tsbuildinfo',
      ])
        file(path);

      expect(removeOrphanedOutputs(root).sort()).toEqual([
        'dist/migrations/2-Renamed.js',
        'dist/tasks/old.entity.js',
        'dist/tasks/old.entity.js.map',
      ]);
      expect(removeOrphanedOutputs(root)).toEqual([]);
    });

    it('should do nothing before anything was built', () => {
      file('src/main.ts');
      expect(removeOrphanedOutputs(root)).toEqual([]);
    });
  });

  describe('isConsoleStale', () => {
    beforeEach(() => {
      file('console/app/main.tsx', 60);
      file('console/build.ts', 60);
      file('package-lock.json', 60);
    });

    it('should be stale when the console was never built', () => {
      expect(isConsoleStale(root)).toBe(true);
    });

    it('should be up to date when its page is newer than every file it is made from', () => {
      file('dist/console-assets/index.html', 30);
      utimesSync(
        join(root, 'console/app'),
        new Date(Date.now() - 60_000),
        new Date(Date.now() - 60_000),
      );
      expect(isConsoleStale(root)).toBe(false);
    });

    it.each(['console/app/pages/task-page.tsx', 'console/build.ts', 'package-lock.json'])(
      'should be stale when %s changed after the build',
      (changed) => {
        file('dist/console-assets/index.html', 30);
        file(changed);
        expect(isConsoleStale(root)).toBe(true);
      },
    );
  });
});
