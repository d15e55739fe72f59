import { setPriority } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { readPage, type PageRead, type PageReadRequest } from './page-read';

/**
 * The nice value of a reading thread (docs/pages.md, "Reading off the event loop"): when the
 * cores are busy, the event loop that serves requests and runs deliveries gets them first. On
 * Linux a thread has a priority of its own, and `setPriority` without a pid sets the calling
 * thread's; elsewhere it would set the whole process's, so it is left alone there.
 */
export const READING_THREAD_NICE = 10;
if (process.platform === 'linux') setPriority(READING_THREAD_NICE);

/** A read as it crosses to a reading thread. */
export interface PageReadTask {
  request: PageReadRequest;
  /** The body's bytes, moved to the thread. */
  body: Uint8Array;
  /** Told when the read starts: the page's deadline counts from then. */
  started: MessagePort;
}

/**
 * A reading thread's task (docs/pages.md, "Reading off the event loop"): says that it starts,
 * then reads the page.
 */
export default function readPageInThread({ request, body, started }: PageReadTask): PageRead {
  started.postMessage(null);
  started.close();
  return readPage(request, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}
