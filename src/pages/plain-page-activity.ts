import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { DatabaseSignals, type InstanceSignals } from '../database/database-signals';

/**
 * How long no plain page is under way before the machine counts as quiet: longer than the moment
 * between one batch of checks and the next, when a burst of them has none under way.
 */
export const QUIET_MS = 1_000;
/**
 * While an instance has plain pages under way, it tells the others at most this often, and once
 * more this long at most after its last one ends; well under QUIET_MS, so that a busy instance
 * never looks quiet to the others.
 */
export const SIGNAL_EVERY_MS = 250;
/** The channel of the instances' signals that they have plain pages under way. */
export const PLAIN_PAGES_CHANNEL = 'plain_pages';

/**
 * This machine, the same in every instance and container it runs: the kernel's boot id, which
 * containers share with their host, or the host name where there is none.
 */
function thisMachine(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return hostname();
  }
}

/**
 * The pages over HTTP under way on this machine, and a wait for a pause in them (docs/pages.md,
 * "Pages that need a browser"): browser pages start in the pauses of plain ones, so that a burst
 * of plain checks does not share the cores with Chromium. It counts this instance's plain pages,
 * and hears the other instances on the same machine through the database's signals, where there
 * are some (none in the page stage's own tests).
 */
@Injectable()
export class PlainPageActivity {
  private readonly machine = thisMachine();
  private underWay = 0;
  /** When the last plain page of this instance ended (epoch ms); 0 before the first. */
  private lastEnded = 0;
  /** When another instance on this machine last said it had plain pages under way (epoch ms). */
  private othersBusyAt = 0;
  /** Whether a plain page started or ended since this instance last told the others. */
  private changed = false;
  private signalling: NodeJS.Timeout | null = null;

  constructor(
    @Optional()
    @Inject(DatabaseSignals)
    private readonly signals: InstanceSignals | null = null,
  ) {
    signals?.listen(PLAIN_PAGES_CHANNEL, (machine) => {
      if (machine === this.machine) this.othersBusyAt = Date.now();
    });
  }

  /** Runs `work` (a plain page, from its wait for a slot to its read) as under way. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.underWay += 1;
    this.tellOthers();
    try {
      return await work();
    } finally {
      this.underWay -= 1;
      this.lastEnded = Date.now();
      this.tellOthers();
    }
  }

  /**
   * Resolves once no plain page has been under way on this machine for QUIET_MS since `since`
   * (epoch ms: a waiter counts only the quiet it has seen), or at `until`.
   */
  async quiet(since: number, until: number): Promise<void> {
    for (;;) {
      const now = Date.now();
      const quietFrom =
        this.underWay === 0 ? Math.max(this.lastEnded, this.othersBusyAt, since) : now;
      const quietAt = quietFrom + QUIET_MS;
      if (now >= quietAt || now >= until) return;
      await new Promise<void>((resolve) => {
        // A wait is no reason for the process to stay up.
        setTimeout(resolve, Math.min(quietAt, until) - now).unref();
      });
    }
  }

  /**
   * Tells the other instances that this one has plain pages under way: at once when it has not
   * in the last SIGNAL_EVERY_MS, then every SIGNAL_EVERY_MS while a page is under way or one
   * started or ended since.
   */
  private tellOthers(): void {
    const signals = this.signals;
    if (!signals) return;
    this.changed = true;
    if (this.signalling) return;
    const tick = () => {
      if (this.underWay === 0 && !this.changed) {
        this.signalling = null;
        return;
      }
      this.changed = false;
      signals.send(PLAIN_PAGES_CHANNEL, this.machine);
      this.signalling = setTimeout(tick, SIGNAL_EVERY_MS);
      this.signalling.unref();
    };
    tick();
  }
}
