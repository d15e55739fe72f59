import { defineConfig, type ConfigOf } from '../config/config-slice';

export const schedulerConfig = defineConfig('scheduler', (read) => {
  const config = {
    /** Bounds of the agent's `next_run`. */
    minIntervalMs: read.duration('SCHEDULER_MIN_INTERVAL', '15m'),
    maxIntervalMs: read.duration('SCHEDULER_MAX_INTERVAL', '7d'),
    /**
     * The longest interval between checks of a task whose verdict needs no model, and its first
     * (docs/pages.md, "When a page task is checked").
     */
    pageCheckIntervalMs: read.duration('PAGE_CHECK_INTERVAL', '1h'),
    /** false: this instance serves the API only and runs no executions or deliveries. */
    workerEnabled: read.boolean('WORKER_ENABLED', true),
    workerConcurrency: read.integer('WORKER_CONCURRENCY', 200, 1, 1000),
  };
  if (config.minIntervalMs > config.maxIntervalMs) {
    read.problem('SCHEDULER_MIN_INTERVAL: must not be longer than SCHEDULER_MAX_INTERVAL');
  }
  return config;
});
export type SchedulerConfig = ConfigOf<typeof schedulerConfig>;
