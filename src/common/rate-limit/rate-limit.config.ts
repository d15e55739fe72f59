import { defineConfig, type ConfigOf } from '../../config/config-slice';

export const rateLimitConfig = defineConfig('rateLimit', (read) => ({
  perMinute: read.integer('RATE_LIMIT_PER_MINUTE', 100, 1, 10_000_000),
  perHour: read.integer('RATE_LIMIT_PER_HOUR', 1000, 1, 10_000_000),
  perDay: read.integer('RATE_LIMIT_PER_DAY', 10000, 1, 10_000_000),
  llmPerHour: read.integer('RATE_LIMIT_LLM_PER_HOUR', 60, 1, 10_000_000),
  /** Executes per user and hour of tasks whose verdict needs no model (docs/api.md, "Rate limits"). */
  pageChecksPerHour: read.integer('RATE_LIMIT_PAGE_CHECKS_PER_HOUR', 120, 1, 10_000_000),
  /** Requests with a missing or bad credential one client IP may make in a minute. */
  authFailuresPerMinute: read.integer('RATE_LIMIT_AUTH_FAILURES_PER_MINUTE', 30, 1, 10_000_000),
  testSendsPerHour: read.integer('RATE_LIMIT_TEST_SENDS_PER_HOUR', 30, 1, 10_000_000),
}));
export type RateLimitConfig = ConfigOf<typeof rateLimitConfig>;
