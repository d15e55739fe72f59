/** When a task stops waiting for a slot, and what it answers then. */
export interface GiveUp<T> {
  at: number;
  answer: () => T;
}

interface KeySlots {
  active: number;
  waiting: Array<() => void>;
}

/**
 * At most `perKey` tasks at a time per key (a host name, say) in this process; the rest wait in
 * arrival order. A concurrency limit needs no durable state: it ends with the process.
 */
export class KeyedLimiter {
  private readonly hosts = new Map<string, KeySlots>();

  constructor(private readonly perKey: number) {}

  /**
   * Runs `work` once `key` has a free slot. With `giveUp`, a task still waiting at `giveUp.at`
   * (epoch ms) leaves the line and answers `giveUp.answer()` instead.
   */
  async run<T>(key: string, work: () => Promise<T>, giveUp?: GiveUp<T>): Promise<T> {
    if (giveUp === undefined) await this.acquire(key);
    else if (!(await this.acquire(key, giveUp.at))) return giveUp.answer();
    try {
      return await work();
    } finally {
      this.release(key);
    }
  }

  /** True once the task holds a slot; false when `giveUpAt` came first. */
  private acquire(key: string, giveUpAt?: number): Promise<boolean> {
    const slots = this.hosts.get(key) ?? { active: 0, waiting: [] };
    this.hosts.set(key, slots);
    if (slots.active < this.perKey) {
      slots.active += 1;
      return Promise.resolve(true);
    }
    // The slot passes straight to the next waiter: `active` stays as it is.
    return new Promise((resolve) => {
      const granted = (): void => {
        clearTimeout(expiry);
        resolve(true);
      };
      const expiry =
        giveUpAt === undefined
          ? undefined
          : setTimeout(() => {
              slots.waiting.splice(slots.waiting.indexOf(granted), 1);
              resolve(false);
            }, giveUpAt - Date.now());
      // A wait is no reason for the process to stay up.
      expiry?.unref();
      slots.waiting.push(granted);
    });
  }

  private release(key: string): void {
    const slots = this.hosts.get(key);
    if (!slots) return;
    const next = slots.waiting.shift();
    if (next) {
      next();
      return;
    }
    slots.active -= 1;
    if (slots.active === 0) this.hosts.delete(key);
  }
}
