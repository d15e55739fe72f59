/** One element of a task's `notifications`, as stored (secrets included: owner only). */
export type { NotificationConfig } from './channel-registry';
