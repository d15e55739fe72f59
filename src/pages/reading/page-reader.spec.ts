import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, getPriority } from 'node:os';
import { PinoLogger } from 'nestjs-pino';
import { READING_THREAD_NICE } from './page-read.worker';
import { PageReader, readingThreads } from './page-reader';

/** The nice value of each thread of this process, from /proc (Linux). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((task) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    // The fields after the command's closing parenthesis; nice is the 19th field in all.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

const html = (markup: string) => Buffer.from(markup);
const page = { kind: 'page' as const, contentType: 'text/html', previousText: null };

describe('PageReader', () => {
  let reader: PageReader;

  beforeAll(() => {
    reader = new PageReader({ threads: 1, deadlineMs: 300 }, new PinoLogger({}));
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
    // One JSON object of 400,000 keys out of order: sorting and writing them takes seconds.
    const keys = Array.from({ length: 400_000 }, (_, n) => `"k${(n * 7_919) % 400_000}":${n}`);
    const wide = Buffer.from(`{${keys.join(',')}}`);
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
    const keys = Array.from({ length: 400_000 }, (_, n) => `"k${(n * 7_919) % 400_000}":${n}`);
    const wide = Buffer.from(`{${keys.join(',')}}`);
    const [stopped, queued] = await Promise.all([
      reader.read({ ...page, contentType: 'application/json' }, wide),
      reader.read(page, html('<p>queued</p>')),
    ]);
    expect(stopped).toEqual({ kind: 'error', error: 'too complex' });
    expect(queued).toMatchObject({ text: 'queued' });
  });

  (process.platform === 'linux' ? it : it.skip)(
    'should read on threads that yield the cores to the event loop',
    async () => {
      const eventLoop = getPriority();
      await reader.read(page, html('<p>one</p>'));
      // The thread stays for the next page; the event loop's thread keeps its priority.
      expect(threadNiceValues()).toContain(READING_THREAD_NICE);
      expect(getPriority()).toBe(eventLoop);
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
