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

  async run<T>(host: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(host);
    try {
      return await work();
    } finally {
      this.release(host);
    }
  }

  private acquire(host: string): Promise<void> {
    const slots = this.hosts.get(host) ?? { active: 0, waiting: [] };
    this.hosts.set(host, slots);
    if (slots.active < this.perKey) {
      slots.active += 1;
      return Promise.resolve();
    }
    // The slot passes straight to the next waiter: `active` stays as it is.
    return new Promise((resolve) => slots.waiting.push(resolve));
  }

  private release(host: string): void {
    const slots = this.hosts.get(host);
    if (!slots) return;
    const next = slots.waiting.shift();
    if (next) {
      next();
      return;
    }
    slots.active -= 1;
    if (slots.active === 0) this.hosts.delete(host);
  }
}
