import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, getPriority } from 'node:os';
import { PinoLogger } from 'nestjs-pino';
import { procStatField } from '../../common/proc/proc-stat';
import { readConfig } from '../../config/config-slice';
import { browserConfig } from '../browser/browser.config';
import { READING_THREAD_NICE } from './page-read.worker';
import { PageReader, READING_THREAD_HEAP_MB, readingThreads } from './page-reader';

/** SCHED_OTHER and SCHED_IDLE, as /proc shows a thread's scheduling policy. */
const NORMAL_POLICY = 0;
const IDLE_POLICY = 5;

/** Each thread of this process by id, with its nice value and scheduling policy (Linux). */
function threads(): Map<string, { nice: number; policy: number }> {
  const found = new Map<string, { nice: number; policy: number }>();
  for (const task of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    found.set(task, {
      nice: Number(procStatField(stat, 19)),
      policy: Number(procStatField(stat, 41)),
    });
  }
  return found;
}

/** The threads a fresh reader starts for its first read, as it leaves them (it keeps one). */
async function threadsStartedFor(
  chrt: string | null,
): Promise<Array<{ nice: number; policy: number }>> {
  const reader = new PageReader(
    { threads: 1, deadlineMs: 300, chrtPath: chrt, heapMb: READING_THREAD_HEAP_MB },
    new PinoLogger({}),
  );
  const before = threads();
  try {
    await reader.read(page, html('<p>one</p>'));
    return [...threads()].filter(([task]) => !before.has(task)).map(([, thread]) => thread);
  } finally {
    await reader.onApplicationShutdown();
  }
}

/** One JSON object of `size` keys out of order, which reading sorts. */
function wideJson(size: number): Buffer {
  const keys = Array.from({ length: size }, (_, n) => `"k${(n * 7_919) % size}":${n}`);
  return Buffer.from(`{${keys.join(',')}}`);
}

const { chrtPath } = readConfig(process.env, { browser: browserConfig }).browser;
const html = (markup: string) => Buffer.from(markup);
const page = { kind: 'page' as const, contentType: 'text/html', previousText: null };

describe('PageReader', () => {
  let reader: PageReader;

  beforeAll(() => {
    reader = new PageReader(
      { threads: 1, deadlineMs: 300, chrtPath, heapMb: READING_THREAD_HEAP_MB },
      new PinoLogger({}),
    );
  });
  afterAll(() => reader.onApplicationShutdown());

  it('should read and compare a page on a reading thread', async () => {
    const read = await reader.read(
      { ...page, previousText: 'Old' },
      html('<title>T</title><p>New</p>'),
    );
    expect(read).toEqual({
      kind: 'text',
      text: 'New',
      title: 'T',
      contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      status: 'changed',
      added: ['New'],
      removed: ['Old'],
      news: null,
    });
  });

  it('should end a read past its deadline as too complex while the event loop keeps turning, and read on after', async () => {
    await reader.read(page, html('<p>warm</p>'));
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 10);
    // Sorting and writing 400,000 keys takes seconds.
    const wide = wideJson(400_000);
    try {
      expect(await reader.read({ ...page, contentType: 'application/json' }, wide)).toEqual({
        kind: 'error',
        error: 'too complex',
      });
    } finally {
      clearInterval(ticking);
    }
    // Read on the event loop, the read would have let no timer fire before it ended; on a thread
    // the timer fires throughout its 300 ms (a few times at least, however busy the machine).
    expect(ticks).toBeGreaterThanOrEqual(2);
    expect(await reader.read(page, html('<p>after</p>'))).toMatchObject({ text: 'after' });
  });

  it('should read the pages queued behind a read stopped at its deadline', async () => {
    const wide = wideJson(400_000);
    const [stopped, queued] = await Promise.all([
      reader.read({ ...page, contentType: 'application/json' }, wide),
      reader.read(page, html('<p>queued</p>')),
    ]);
    expect(stopped).toEqual({ kind: 'error', error: 'too complex' });
    expect(queued).toMatchObject({ text: 'queued' });
  });

  it('should end a read whose thread runs out of heap as too complex, and read the others', async () => {
    const small = new PageReader(
      { threads: 1, deadlineMs: 10_000, chrtPath, heapMb: 64 },
      new PinoLogger({}),
    );
    try {
      // Reading 400,000 keys holds more than 64 MiB; starting a thread (under ts-node here)
      // takes less.
      const [failed, other] = await Promise.all([
        small.read({ ...page, contentType: 'application/json' }, wideJson(400_000)),
        small.read(page, html('<p>other</p>')),
      ]);
      expect(failed).toEqual({ kind: 'error', error: 'too complex' });
      expect(other).toMatchObject({ text: 'other' });
      expect(await small.read(page, html('<p>after</p>'))).toMatchObject({ text: 'after' });
    } finally {
      await small.onApplicationShutdown();
    }
  });

  (process.platform === 'linux' ? it : it.skip)(
    'should read on threads under the idle scheduling policy, and at nice 10 without chrt',
    async () => {
      expect(chrtPath).not.toBeNull();
      const eventLoop = getPriority();
      expect(await threadsStartedFor(chrtPath)).toEqual([
        { nice: READING_THREAD_NICE, policy: IDLE_POLICY },
      ]);
      expect(await threadsStartedFor(null)).toEqual([
        { nice: READING_THREAD_NICE, policy: NORMAL_POLICY },
      ]);
      // The event loop's thread keeps its priority and policy.
      expect(getPriority()).toBe(eventLoop);
      expect(threads().get(String(process.pid))?.policy).toBe(NORMAL_POLICY);
    },
  );

  (process.platform === 'linux' ? it : it.skip)(
    'should not stop a read that waits for the cores while other work has them',
    async () => {
      const patient = new PageReader(
        { threads: 1, deadlineMs: 1_000, chrtPath, heapMb: READING_THREAD_HEAP_MB },
        new PinoLogger({}),
      );
      // A busy process for each core, for 1.5 s: the reading thread, idle, gets none of them.
      const busy =
        'process.stdout.write("go"); const end = Date.now() + 1_500; while (Date.now() < end);';
      const hogs: ChildProcess[] = [];
      try {
        await patient.read(page, html('<p>warm</p>'));
        for (let core = 0; core < availableParallelism(); core += 1) {
          hogs.push(spawn(process.execPath, ['-e', busy]));
        }
        await Promise.all(hogs.map((hog) => once(hog.stdout!, 'data')));
        const begun = performance.now();
        // Some 100 ms of CPU: far less than its deadline, but it waits for the cores.
        const read = await patient.read(
          { ...page, contentType: 'application/json' },
          wideJson(20_000),
        );
        expect(read).toMatchObject({ kind: 'text' });
        expect(performance.now() - begun).toBeGreaterThan(1_000);
      } finally {
        hogs.forEach((hog) => hog.kill());
        await patient.onApplicationShutdown();
      }
    },
  );

  it('should tell a bot check in an error answer from the fetch error', async () => {
    const answer = { kind: 'error answer' as const, contentType: 'text/html', error: 'HTTP 503' };
    expect(await reader.read(answer, html('<title>Just a moment...</title>'))).toEqual({
      kind: 'error',
      error: 'blocked by a bot check',
    });
    expect(await reader.read(answer, html('<p>Down</p>'))).toEqual({
      kind: 'error',
      error: 'HTTP 503',
    });
  });
});

describe('readingThreads', () => {
  it('should take one thread a core, at most one a page, at least one', () => {
    expect(readingThreads(1)).toBe(1);
    expect(readingThreads(0)).toBe(1);
    expect(readingThreads(1_000)).toBe(availableParallelism());
  });
});
