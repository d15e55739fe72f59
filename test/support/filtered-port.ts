import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

/** The listener's backlog: the kernel queues this many connections plus one, then drops SYNs. */
const BACKLOG = 1;
const FILLERS = BACKLOG + 1;

/**
 * A port on 127.0.0.1 that behaves like a filtered one: a connection to it never opens and never
 * fails, it just hangs. A listener in a worker thread whose event loop is blocked never accepts;
 * once the kernel's accept queue is full (filled here), new SYNs are dropped and the client keeps
 * retransmitting until its own deadline. `url` points at it.
 */
export class FilteredPort {
  port = 0;
  private worker: Worker | null = null;
  private readonly release = new Int32Array(new SharedArrayBuffer(4));
  private readonly fillers: Socket[] = [];

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const server = require('node:net').createServer();
       server.listen({ port: 0, host: '127.0.0.1', backlog: ${BACKLOG} }, () => {
         // Block this thread's event loop (so nothing is accepted) until the test releases it.
         // The port is told in the same turn: once it is known, nothing can be accepted.
         setImmediate(() => {
           parentPort.postMessage(server.address().port);
           Atomics.wait(workerData, 0, 0, 10 * 60_000);
           server.close();
         });
       });`,
      { eval: true, workerData: this.release },
    );
    this.port = await new Promise<number>((resolve, reject) => {
      this.worker?.once('message', resolve);
      this.worker?.once('error', reject);
    });
    // The worker is blocked: fill the accept queue.
    for (let index = 0; index < FILLERS; index += 1) {
      const socket = connect(this.port, '127.0.0.1');
      socket.on('error', () => undefined);
      this.fillers.push(socket);
      await new Promise<void>((resolve) => {
        socket.once('connect', () => resolve());
        setTimeout(resolve, 500);
      });
    }
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.fillers) socket.destroy();
    Atomics.store(this.release, 0, 1);
    Atomics.notify(this.release, 0);
    await this.worker?.terminate();
    this.worker = null;
  }
}
