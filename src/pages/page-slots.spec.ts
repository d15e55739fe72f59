import { PageSlots } from './page-slots';

/** Lets every settled promise's continuation run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Work the test ends when it likes, recording when it started. */
class HeldWork {
  readonly started: string[] = [];
  private readonly ends = new Map<string, () => void>();
  private readonly shares = new Map<string, () => void>();

  /** A task named `name` that runs until `end(name)`. */
  task(name: string): (hostDone: () => void) => Promise<string> {
    return (hostDone) => {
      this.started.push(name);
      this.shares.set(name, hostDone);
      return new Promise((resolve) => this.ends.set(name, () => resolve(name)));
    };
  }

  /** Task `name` no longer needs its host's share (as a page once fetched). */
  fetched(name: string): void {
    this.shares.get(name)?.();
  }

  end(name: string): void {
    this.ends.get(name)?.();
  }

  /** Ends each of `names` in turn, once the work the last one freed a slot for has started. */
  async endInTurn(names: string[]): Promise<void> {
    for (const name of names) {
      await settle();
      this.end(name);
    }
  }
}

describe('PageSlots', () => {
  it('should start the one page of a second user as soon as a slot frees, however many the first has waiting', async () => {
    const slots = new PageSlots({ total: 2, perOwner: 2, perHost: 10 });
    const work = new HeldWork();
    const many = Array.from({ length: 100 }, (_, n) =>
      slots.run('many', `host-${n}`, work.task(`many-${n}`)),
    );
    const one = slots.run('one', 'host-x', work.task('one'));
    await settle();
    expect(work.started).toEqual(['many-0', 'many-1']);
    work.end('many-0');
    await settle();
    expect(work.started).toEqual(['many-0', 'many-1', 'one']);
    work.end('one');
    expect(await one).toBe('one');
    await work.endInTurn(Array.from({ length: 99 }, (_, n) => `many-${n + 1}`));
    expect(await Promise.all(many)).toHaveLength(100);
  });

  it('should never let one user hold more than its share, even with slots to spare', async () => {
    const slots = new PageSlots({ total: 8, perOwner: 4, perHost: 10 });
    const work = new HeldWork();
    const runs = Array.from({ length: 6 }, (_, n) =>
      slots.run('alone', `h${n}`, work.task(`${n}`)),
    );
    await settle();
    expect(work.started).toEqual(['0', '1', '2', '3']);
    work.end('2');
    await settle();
    expect(work.started).toEqual(['0', '1', '2', '3', '4']);
    await work.endInTurn(['0', '1', '3', '4', '5']);
    expect(await Promise.all(runs)).toHaveLength(6);
  });

  it('should hand freed slots to the waiting users in turn', async () => {
    const slots = new PageSlots({ total: 1, perOwner: 1, perHost: 10 });
    const work = new HeldWork();
    const blocker = slots.run('z', 'h', work.task('z'));
    const runs = [
      slots.run('a', 'h', work.task('a1')),
      slots.run('a', 'h', work.task('a2')),
      slots.run('a', 'h', work.task('a3')),
      slots.run('b', 'h', work.task('b1')),
      slots.run('b', 'h', work.task('b2')),
      slots.run('c', 'h', work.task('c1')),
    ];
    await settle();
    work.end('z');
    await blocker;
    for (const name of ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']) {
      await settle();
      expect(work.started.at(-1)).toBe(name);
      work.end(name);
    }
    expect(await Promise.all(runs)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'c1']);
  });

  it("should keep a host's limit, starting a user's page on a free host before one on a busy host", async () => {
    const slots = new PageSlots({ total: 8, perOwner: 4, perHost: 1 });
    const work = new HeldWork();
    const runs = [
      slots.run('a', 'busy', work.task('first')),
      slots.run('a', 'busy', work.task('second')),
      slots.run('a', 'free', work.task('elsewhere')),
    ];
    await settle();
    expect(work.started).toEqual(['first', 'elsewhere']);
    work.end('first');
    await settle();
    expect(work.started).toEqual(['first', 'elsewhere', 'second']);
    work.end('second');
    work.end('elsewhere');
    expect(await Promise.all(runs)).toEqual(['first', 'second', 'elsewhere']);
  });

  it('should let a task give up waiting at its time and keep the line for the others', async () => {
    jest.useFakeTimers();
    try {
      const slots = new PageSlots({ total: 1, perOwner: 1, perHost: 1 });
      const work = new HeldWork();
      const running = slots.run('a', 'h', work.task('first'));
      const late = slots.run('b', 'h', work.task('late'), {
        at: Date.now() + 1000,
        answer: () => 'gave up',
      });
      const patient = slots.run('c', 'h', work.task('patient'));
      await jest.advanceTimersByTimeAsync(1000);
      expect(await late).toBe('gave up');
      work.end('first');
      expect(await running).toBe('first');
      await jest.advanceTimersByTimeAsync(0);
      expect(work.started).toEqual(['first', 'patient']);
      work.end('patient');
      expect(await patient).toBe('patient');
    } finally {
      jest.useRealTimers();
    }
  });

  it('should free the slot when the work fails', async () => {
    const slots = new PageSlots({ total: 1, perOwner: 1, perHost: 1 });
    await expect(slots.run('a', 'h', () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(await slots.run('b', 'h', () => Promise.resolve(1))).toBe(1);
  });

  it("should start a user's next page on the same host once the last is fetched, while it is still read", async () => {
    const slots = new PageSlots({ total: 3, perOwner: 3, perHost: 1 });
    const work = new HeldWork();
    const runs = ['p1', 'p2', 'p3', 'p4'].map((name) => slots.run('a', 'h', work.task(name)));
    await settle();
    expect(work.started).toEqual(['p1']);
    work.fetched('p1');
    work.fetched('p1');
    await settle();
    expect(work.started).toEqual(['p1', 'p2']);
    work.fetched('p2');
    await settle();
    work.fetched('p3');
    await settle();
    // Three pages read at once hold every slot: the fourth waits for one of them to end.
    expect(work.started).toEqual(['p1', 'p2', 'p3']);
    work.end('p2');
    await settle();
    expect(work.started).toEqual(['p1', 'p2', 'p3', 'p4']);
    for (const name of ['p1', 'p3', 'p4']) work.end(name);
    expect(await Promise.all(runs)).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  it('should keep a user to half the slots while its pages are read, not only fetched', async () => {
    const slots = new PageSlots({ total: 8, perOwner: 4, perHost: 8 });
    const work = new HeldWork();
    const many = Array.from({ length: 10 }, (_, n) =>
      slots.run('many', `host-${n}`, work.task(`many-${n}`)),
    );
    await settle();
    for (let n = 0; n < 4; n++) work.fetched(`many-${n}`);
    await settle();
    expect(work.started).toEqual(['many-0', 'many-1', 'many-2', 'many-3']);
    const other = slots.run('other', 'host-x', work.task('other'));
    await settle();
    expect(work.started).toContain('other');
    work.end('other');
    expect(await other).toBe('other');
    await work.endInTurn(Array.from({ length: 10 }, (_, n) => `many-${n}`));
    expect(await Promise.all(many)).toHaveLength(10);
  });
});
