import { execFileSync } from 'node:child_process';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from './heap-growth';

describe('heapGrowthFlag', () => {
  it('should set the service’s growth when the command line sets none', () => {
    expect(heapGrowthFlag(['--enable-source-maps'])).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it.each([['--heap-growing-percent=150'], ['--heap_growing_percent=150']])(
    'should leave the operator’s %s alone',
    (flag) => {
      expect(heapGrowthFlag(['--enable-source-maps', flag])).toBeNull();
    },
  );

  it('should not mistake another flag for it', () => {
    expect(heapGrowthFlag(['--heap-growing-percentage-x=1'])).not.toBeNull();
  });
});

describe('limitHeapGrowth', () => {
  /**
   * A process that keeps about 40 MB and promotes garbage (entries of a ring that outlive two
   * young-generation collections); it prints the largest old space it saw. V8's own growth lets
   * that reach several times what the process keeps.
   */
  const PROGRAM = `
    const v8 = require('node:v8');
    if (process.argv[1] === 'limit') require(${JSON.stringify(require.resolve('./heap-growth'))}).limitHeapGrowth([]);
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
  const largestOldSpaceMb = (mode: string): number =>
    Number(
      execFileSync(
        process.execPath,
        ['--expose-gc', '-r', 'ts-node/register/transpile-only', '-e', PROGRAM, mode],
        {
          encoding: 'utf8',
        },
      ).split(' ')[0],
    );

  it('should keep the old generation smaller than V8 alone does', () => {
    expect(largestOldSpaceMb('limit')).toBeLessThan(largestOldSpaceMb('default') * 0.8);
  }, 60_000);
});
