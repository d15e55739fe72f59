import { execFileSync } from 'node:child_process';
import { setPriority } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { isWorkerThread, workerData } from 'piscina';
import { readPage, type PageRead, type PageReadRequest } from './page-read';
import { currentThreadId, threadCpuMs, type ReadStart } from './read-deadline';

/** What every reading thread is started with. */
export interface ReadingThreadData {
  /** util-linux's `chrt`, which puts the thread under the idle scheduling policy; null: none. */
  chrtPath: string | null;
}

/** The nice value of a reading thread where the idle policy cannot be had. */
export const READING_THREAD_NICE = 10;

const tid = currentThreadId();

/**
 * A reading thread yields the cores (docs/pages.md, "Reading off the event loop"): under Linux's
 * idle scheduling policy, it gets a core only when nothing else on the machine wants it, so the
 * event loop that serves requests and runs deliveries keeps its core however hard the pages.
 * Where `chrt` cannot set the policy, it runs at nice 10, which only weighs its share. On Linux a
 * thread has a priority of its own, and `setPriority` without a pid sets the calling thread's;
 * elsewhere it would set the whole process's, so it is left alone there.
 */
function yieldTheCores({ chrtPath }: ReadingThreadData): void {
  if (process.platform !== 'linux' || tid === null) return;
  setPriority(READING_THREAD_NICE);
  if (chrtPath === null) return;
  try {
    execFileSync(chrtPath, ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    // Nice 10 stands.
  }
}
// Only on a reading thread: a module that imports this one for its types keeps its priority.
if (isWorkerThread) yieldTheCores(workerData as ReadingThreadData);

/** A read as it crosses to a reading thread. */
export interface PageReadTask {
  request: PageReadRequest;
  /** The body's bytes, moved to the thread. */
  body: Uint8Array;
  /** Told when the read starts (a ReadStart): the page's deadline counts from then. */
  started: MessagePort;
}

/**
 * A reading thread's task (docs/pages.md, "Reading off the event loop"): says that it starts,
 * with the thread's CPU time then, and reads the page.
 */
export default function readPageInThread({ request, body, started }: PageReadTask): PageRead {
  const cpuMs = tid === null ? null : threadCpuMs(tid);
  const start: ReadStart = cpuMs === null ? { tid: null, cpuMs: 0 } : { tid, cpuMs };
  started.postMessage(start);
  started.close();
  return readPage(request, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}
