import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { Piscina } from 'piscina';
import { PageErrorForm } from '../page-errors';
import type { PageRead, PageReadRequest } from './page-read';
import type { PageReadTask, ReadingThreadData } from './page-read.worker';
import { stopAtReadDeadline, type ReadStart } from './read-deadline';

export const PAGE_READER_OPTIONS = Symbol('page reader options');

export interface PageReaderOptions {
  /** Reading threads at most. */
  threads: number;
  /** `PAGE_READ_CPU_MS`: the CPU time one read may take once a thread starts it. */
  deadlineMs: number;
  /** util-linux's `chrt`, to run the threads under the idle scheduling policy; null: none. */
  chrtPath: string | null;
  /** MiB of JavaScript heap a reading thread may hold (READING_THREAD_HEAP_MB). */
  heapMb: number;
}

/**
 * The JavaScript heap a reading thread may hold: 4 times what the costliest page of 5 MB measured
 * needed (a JSON document canonicalised, within 128 MiB), so that no page takes the process's
 * memory; a page past it is `too complex`.
 */
export const READING_THREAD_HEAP_MB = 512;

/** A reading thread ends after this long without a page to read. */
const IDLE_THREAD_MS = 60_000;

/**
 * Threads enough for `pagesAtOnce` pages read at once on this machine's cores: no more than one
 * a core (more would only share them) nor one a page, and at least one.
 */
export function readingThreads(pagesAtOnce: number): number {
  return Math.max(1, Math.min(pagesAtOnce, availableParallelism()));
}

/**
 * The reading thread's file beside this one: JavaScript once built; under ts-node and Jest, the
 * TypeScript source, which a thread reads with ts-node registered (a thread has its own module
 * loader, without its parent's hooks).
 */
function workerFile(): { filename: string; execArgv?: string[] } {
  const extension = extname(__filename);
  const filename = join(__dirname, `page-read.worker${extension}`);
  if (extension !== '.ts') return { filename };
  return { filename, execArgv: ['--require', require.resolve('ts-node/register/transpile-only')] };
}

/**
 * Reads pages on a pool of threads, off the event loop that serves requests and runs
 * deliveries (docs/pages.md, "Reading off the event loop"). A read that has had `deadlineMs` of
 * its thread's CPU time (or was started `READ_WALL_FACTOR` times that ago) is stopped (the
 * thread is ended and replaced) and the page is `too complex`: nothing waits on a stalled read.
 * So is a page whose thread fails under it, past its heap's `heapMb` or otherwise: the other
 * pages of its check are read all the same.
 * The threads start with the first read; one is kept from then, the others end when idle. The
 * pool closes when the application shuts down, after the checks that read through it have
 * stopped.
 */
@Injectable()
export class PageReader implements OnApplicationShutdown {
  /** Created with the first read: an instance that reads no page starts no thread. */
  private pool: Piscina<PageReadTask, PageRead> | null = null;

  constructor(
    @Inject(PAGE_READER_OPTIONS) private readonly options: PageReaderOptions,
    @InjectPinoLogger(PageReader.name) private readonly logger: PinoLogger,
  ) {}

  private threads(): Piscina<PageReadTask, PageRead> {
    if (this.pool !== null) return this.pool;
    const pool = new Piscina<PageReadTask, PageRead>({
      ...workerFile(),
      // Piscina replaces a thread ended by a read's deadline only up to `minThreads`: with none
      // kept, reads queued behind reads stopped on every thread would never start.
      minThreads: 1,
      maxThreads: this.options.threads,
      idleTimeout: IDLE_THREAD_MS,
      workerData: { chrtPath: this.options.chrtPath } satisfies ReadingThreadData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
    });
    // A thread that fails with no read in hand; one with a read fails that read instead.
    pool.on('error', (error: unknown) =>
      this.logger.warn({ err: error }, 'A page reading thread failed'),
    );
    this.pool = pool;
    return pool;
  }

  /** Reads `body` as `request` says, on a thread, within the deadline. */
  async read(request: PageReadRequest, body: Buffer): Promise<PageRead> {
    // One copy, which the thread then owns: the fetch's Buffer may share its memory with others.
    const bytes = new Uint8Array(body);
    const { port1: started, port2 } = new MessageChannel();
    const deadline = new AbortController();
    let done = false;
    let cancel = (): void => undefined;
    started.once('message', (start: ReadStart) => {
      if (!done)
        cancel = stopAtReadDeadline(start, this.options.deadlineMs, () => deadline.abort());
    });
    try {
      return await this.threads().run(
        { request, body: bytes, started: port2 },
        { transferList: [bytes.buffer, port2], signal: deadline.signal },
      );
    } catch (error) {
      // A thread that ends under a read (its heap's limit, a crash) ends only that page.
      if (!deadline.signal.aborted) {
        this.logger.warn({ err: error }, 'A page reading thread failed while reading a page');
      }
      return { kind: 'error', error: PageErrorForm.TOO_COMPLEX };
    } finally {
      done = true;
      cancel();
      started.close();
    }
  }

  /** Lets the reads under way finish (each within its deadline), then ends the threads. */
  async onApplicationShutdown(): Promise<void> {
    await this.pool?.close();
  }
}
