/**
 * How long no plain page is under way before the instance counts as quiet: longer than the
 * moment between one batch of checks and the next, when a burst of them has none under way.
 */
export const QUIET_MS = 1_000;

/**
 * This instance's pages over HTTP under way, and a wait for a pause in them (docs/pages.md,
 * "Pages that need a browser"): browser pages start in the pauses of plain ones, so that a burst
 * of plain checks does not share the cores with Chromium.
 */
export class PlainPageActivity {
  private underWay = 0;
  /** When the last plain page ended (epoch ms); 0 before the first. */
  private lastEnded = 0;

  /** Runs `work` (a plain page, from its wait for a slot to its read) as under way. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.underWay += 1;
    try {
      return await work();
    } finally {
      this.underWay -= 1;
      this.lastEnded = Date.now();
    }
  }

  /**
   * Resolves once no plain page has been under way for QUIET_MS since `since` (epoch ms: a waiter
   * counts only the quiet it has seen), or at `until`.
   */
  async quiet(since: number, until: number): Promise<void> {
    for (;;) {
      const now = Date.now();
      const quietFrom = this.underWay === 0 ? Math.max(this.lastEnded, since) : now;
      const quietAt = quietFrom + QUIET_MS;
      if (now >= quietAt || now >= until) return;
      await new Promise<void>((resolve) => {
        // A wait is no reason for the process to stay up.
        setTimeout(resolve, Math.min(quietAt, until) - now).unref();
      });
    }
  }
}
