import { defineConfig, type ConfigOf } from '../config/config-slice';

export const retentionConfig = defineConfig('retention', (read) => ({
  /**
   * Days an execution is kept before it is deleted with its send records (docs/operations.md,
   * "Retention"); 0 keeps every execution.
   */
  executionRetentionDays: read.integer('EXECUTION_RETENTION_DAYS', 180, 0, 36_500),
}));
export type RetentionConfig = ConfigOf<typeof retentionConfig>;
