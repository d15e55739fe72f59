import { execFileSync } from 'node:child_process';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from './heap-growth';

describe('heapGrowthFlag', () => {
  it('should set the growth of an API-only instance when the command line sets none', () => {
    expect(heapGrowthFlag(false, ['--enable-source-maps'])).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it('should leave an instance that runs the workers to V8', () => {
    expect(heapGrowthFlag(true, ['--enable-source-maps'])).toBeNull();
  });

  it.each([['--heap-growing-percent=150'], ['--heap_growing_percent=150']])(
    'should leave the flag %s of the command line alone',
    (flag) => {
      expect(heapGrowthFlag(false, ['--enable-source-maps', flag])).toBeNull();
    },
  );

  it('should not mistake another flag for it', () => {
    expect(heapGrowthFlag(false, ['--heap-growing-percentage-x=1'])).not.toBeNull();
  });
});

describe('the flag, set at run time', () => {
  /**
   * A process that keeps about 40 MB and promotes garbage (entries of a ring that outlive two
   * young-generation collections), after setting the V8 flag it is given (none: V8's own
   * growth) as `limitHeapGrowth` does; it prints the largest old space it saw.
   */
  const PROGRAM = `
    const v8 = require('node:v8');
    if (process.argv[1]) v8.setFlagsFromString(process.argv[1]);
    const kept = Array.from({ length: 400000 }, (_, i) => ({ i, s: 'k' + i }));
    global.gc(); // the next limit is set from what this collection keeps
    const ring = new Array(200000);
    let largest = 0;
    for (let round = 0; round < 3000000; round += 1) {
      ring[round % 200000] = { round, list: [round, round + 1, round + 2] };
      if (round % 5000 === 0) {
        const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
        largest = Math.max(largest, old.space_used_size);
      }
    }
    console.log(Math.round(largest / 1048576), kept.length);
  `;
  const largestOldSpaceMb = (flag: string): number =>
    Number(
      execFileSync(process.execPath, ['--expose-gc', '-e', PROGRAM, flag], {
        encoding: 'utf8',
      }).split(' ')[0],
    );

  it('should keep the old generation smaller than V8 alone does', () => {
    const flag = heapGrowthFlag(false, []);
    expect(flag).not.toBeNull();
    expect(largestOldSpaceMb(flag as string)).toBeLessThan(largestOldSpaceMb('') * 0.8);
  }, 60_000);
});
