import { defineConfig, type ConfigOf } from '../config/config-slice';

export const executionsConfig = defineConfig('executions', (read) => ({
  /** Consecutive failed executions that raise `task.check_failing`. */
  alertAfterFailures: read.integer('ALERT_AFTER_FAILURES', 3, 1, 1000),
}));
export type ExecutionsConfig = ConfigOf<typeof executionsConfig>;
