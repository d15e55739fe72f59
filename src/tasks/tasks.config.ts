import { defineConfig, type ConfigOf } from '../config/config-slice';

export const tasksConfig = defineConfig('tasks', (read) => ({
  /** Tasks one user may have, in any state, forks included; 0: no cap. */
  maxTasksPerUser: read.integer('MAX_TASKS_PER_USER', 1000, 0, 10_000_000),
  /** Active tasks one user may have; 0: no cap. */
  maxActiveTasksPerUser: read.integer('MAX_ACTIVE_TASKS_PER_USER', 100, 0, 10_000_000),
}));
export type TasksConfig = ConfigOf<typeof tasksConfig>;
