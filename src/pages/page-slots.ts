/** When a task stops waiting for a slot, and what it answers then. */
export interface GiveUp<T> {
  at: number;
  answer: () => T;
}

/** How many tasks may run at once: in all, of one owner, on one host. */
export interface SlotLimits {
  total: number;
  perOwner: number;
  perHost: number;
}

interface Waiter {
  host: string;
  grant: () => void;
}

/** An owner with work running or waiting. */
interface Owner {
  /** Its tasks that hold a slot. */
  running: number;
  /** Its waiting work, in arrival order. */
  waiting: Waiter[];
  /** When it last got a slot (a turn number); -1 before its first. */
  servedAt: number;
}

/**
 * Slots for work that belongs to an owner (a user) and goes to a host, in this process
 * (docs/pages.md, "Fetching"): at most `total` at once, of which `perOwner` of one owner, and
 * `perHost` on one host while they hold its share (a page's fetch; its read holds the slot and
 * its owner's share only). A free slot goes to the owners with waiting work in turn
 * (round-robin: the one served longest ago first, a newcomer before them all), each owner's work
 * in arrival order as its hosts allow, so however much one owner has waiting, another's starts
 * as soon as a slot frees. A waiting task holds nothing. A concurrency limit needs no durable
 * state: it ends with the process.
 */
export class PageSlots {
  private running = 0;
  private turns = 0;
  private readonly owners = new Map<string, Owner>();
  private readonly byHost = new Map<string, number>();

  constructor(private readonly limits: SlotLimits) {}

  /**
   * Runs `work` once a slot is free for `owner` and `host`. `work` may call the `hostDone`
   * function it is given when it no longer needs its host's share (a page once fetched): the
   * slot and the owner's share are held until `work` ends. With `giveUp`, a task still waiting at
   * `giveUp.at` (epoch ms) leaves the line and answers `giveUp.answer()` instead.
   */
  async run<T>(
    owner: string,
    host: string,
    work: (hostDone: () => void) => Promise<T>,
    giveUp?: GiveUp<T>,
  ): Promise<T> {
    if (!(await this.acquire(owner, host, giveUp?.at))) return giveUp!.answer();
    let onHost = true;
    const hostDone = () => {
      if (!onHost) return;
      onHost = false;
      this.leaveHost(host);
      this.dispatch();
    };
    try {
      return await work(hostDone);
    } finally {
      if (onHost) this.leaveHost(host);
      this.leaveOwner(owner);
      this.running -= 1;
      this.dispatch();
    }
  }

  /** True once the task holds a slot; false when `giveUpAt` came first. */
  private acquire(name: string, host: string, giveUpAt?: number): Promise<boolean> {
    const owner = this.owners.get(name) ?? { running: 0, waiting: [], servedAt: -1 };
    this.owners.set(name, owner);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        host,
        grant: () => {
          clearTimeout(expiry);
          resolve(true);
        },
      };
      const expiry =
        giveUpAt === undefined
          ? undefined
          : setTimeout(() => {
              owner.waiting.splice(owner.waiting.indexOf(waiter), 1);
              this.forgetIdle(name, owner);
              resolve(false);
            }, giveUpAt - Date.now());
      // A wait is no reason for the process to stay up.
      expiry?.unref();
      owner.waiting.push(waiter);
      this.dispatch();
    });
  }

  /** Ends a task's share of its host's limit. */
  private leaveHost(host: string): void {
    const onHost = (this.byHost.get(host) ?? 0) - 1;
    if (onHost > 0) this.byHost.set(host, onHost);
    else this.byHost.delete(host);
  }

  /** Ends a task's share of its owner's limit. */
  private leaveOwner(name: string): void {
    const owner = this.owners.get(name)!;
    owner.running -= 1;
    this.forgetIdle(name, owner);
  }

  /** Hands free slots to waiting work, the owner served longest ago first. */
  private dispatch(): void {
    while (this.running < this.limits.total) {
      const next = this.nextWaiter();
      if (next === null) return;
      const [waiter] = next.owner.waiting.splice(next.index, 1);
      next.owner.running += 1;
      next.owner.servedAt = this.turns++;
      this.running += 1;
      this.byHost.set(waiter.host, (this.byHost.get(waiter.host) ?? 0) + 1);
      waiter.grant();
    }
  }

  /** The owner under its limit served longest ago with work whose host has a free slot. */
  private nextWaiter(): { owner: Owner; index: number } | null {
    let next: { owner: Owner; index: number } | null = null;
    for (const owner of this.owners.values()) {
      if (owner.running >= this.limits.perOwner) continue;
      if (next !== null && owner.servedAt >= next.owner.servedAt) continue;
      const index = owner.waiting.findIndex(
        (waiter) => (this.byHost.get(waiter.host) ?? 0) < this.limits.perHost,
      );
      if (index >= 0) next = { owner, index };
    }
    return next;
  }

  /** An owner with nothing running or waiting is forgotten: it comes back as a newcomer. */
  private forgetIdle(name: string, owner: Owner): void {
    if (owner.running === 0 && owner.waiting.length === 0) this.owners.delete(name);
  }
}
