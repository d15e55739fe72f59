/**
 * Runs an async job every `intervalMs`, never two at once, and lets shutdown wait for the run in
 * progress. The sweepers of the workers share it.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.run().finally(() => (this.running = null));
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
