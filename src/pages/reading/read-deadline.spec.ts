import { Worker } from 'node:worker_threads';
import {
  currentThreadId,
  READ_WALL_FACTOR,
  stopAtReadDeadline,
  threadCpuMs,
  type ReadStart,
} from './read-deadline';

const start: ReadStart = { tid: '1', cpuMs: 0 };

describe('stopAtReadDeadline', () => {
  let stopped: number;
  const stop = () => (stopped += 1);

  beforeEach(() => {
    stopped = 0;
    jest.useFakeTimers();
  });
  afterEach(() => jest.useRealTimers());

  it('should stop a read once it has had its CPU time', () => {
    // A thread that runs all the time: its CPU time is the time that passed.
    const begun = performance.now();
    stopAtReadDeadline(start, 1_000, stop, () => performance.now() - begun);
    jest.advanceTimersByTime(999);
    expect(stopped).toBe(0);
    jest.advanceTimersByTime(1);
    expect(stopped).toBe(1);
    jest.advanceTimersByTime(10_000);
    expect(stopped).toBe(1);
  });

  it('should not stop a read that waits for the cores before its CPU time is spent', () => {
    let cpu = 0;
    stopAtReadDeadline(start, 1_000, stop, () => cpu);
    // Looked at 1,000 ms: no CPU yet, so the next look is at 2,000 ms, the soonest it could be spent.
    jest.advanceTimersByTime(1_500);
    cpu = 600;
    jest.advanceTimersByTime(500);
    expect(stopped).toBe(0);
    // Looked at 2,000 ms: 400 ms of CPU left, so the next look is at 2,400 ms.
    cpu = 1_000;
    jest.advanceTimersByTime(399);
    expect(stopped).toBe(0);
    jest.advanceTimersByTime(1);
    expect(stopped).toBe(1);
  });

  it('should stop a read starved of the cores at its wall-clock bound', () => {
    stopAtReadDeadline(start, 1_000, stop, () => 10);
    jest.advanceTimersByTime(READ_WALL_FACTOR * 1_000 - 1);
    expect(stopped).toBe(0);
    jest.advanceTimersByTime(1);
    expect(stopped).toBe(1);
  });

  it('should count time where the CPU time is unknown', () => {
    stopAtReadDeadline(start, 1_000, stop, () => null);
    jest.advanceTimersByTime(999);
    expect(stopped).toBe(0);
    jest.advanceTimersByTime(1);
    expect(stopped).toBe(1);
  });

  it('should stop nothing once cancelled', () => {
    const cancel = stopAtReadDeadline(start, 1_000, stop, () => 5_000);
    cancel();
    jest.advanceTimersByTime(10_000);
    expect(stopped).toBe(0);
  });
});

(process.platform === 'linux' ? describe : describe.skip)('threadCpuMs', () => {
  it("should read one thread's CPU time, not the process's", async () => {
    // A thread that tells its id first, then spins until it has spent 300 ms of CPU by its own
    // /proc figures (utime and stime, in hundredths of a second): a machine busy with other work
    // may give it less than its wall-clock time.
    const spinner = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const { readFileSync, readlinkSync } = require('node:fs');
       parentPort.postMessage(readlinkSync('/proc/thread-self').split('/').pop());
       const ticks = () => {
         const stat = readFileSync('/proc/thread-self/stat', 'utf8');
         const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
         return Number(fields[11]) + Number(fields[12]);
       };
       while (ticks() < 30) for (let spin = 0; spin < 1e6; spin++);
       parentPort.postMessage('done');`,
      { eval: true },
    );
    const messages: string[] = [];
    const done = new Promise<void>((resolve) =>
      spinner.on('message', (message: string) => {
        messages.push(message);
        if (message === 'done') resolve();
      }),
    );
    await done;
    const spent = threadCpuMs(messages[0]);
    await spinner.terminate();
    // The spin and the thread's start, not the CPU time of the whole process.
    expect(spent).toBeGreaterThanOrEqual(300);
    expect(spent).toBeLessThan(1_000);
    expect(threadCpuMs(currentThreadId() ?? '')).not.toBe(spent);
    // An ended thread has no figure.
    expect(threadCpuMs(messages[0])).toBeNull();
  });
});
