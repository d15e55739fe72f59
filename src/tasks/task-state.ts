/** Where a task stands: checked on schedule, paused by its owner, or done (docs/api.md). */
export type TaskState = 'active' | 'paused' | 'completed';
