import { defineConfig, type ConfigOf } from '../config/config-slice';

export const tasksConfig = defineConfig('tasks', (read) => ({
  /** Active tasks one user may have; 0: no cap. */
  maxActiveTasksPerUser: read.integer('MAX_ACTIVE_TASKS_PER_USER', 100, 0, 10_000_000),
}));
export type TasksConfig = ConfigOf<typeof tasksConfig>;
