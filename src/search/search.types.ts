export interface GroundingSource {
  uri: string;
  title: string;
}

/** How a task notifies (`notify_behavior`): what a suggestion proposes and a task keeps. */
export const NOTIFY_BEHAVIORS = ['once', 'always', 'on_change'] as const;
export type NotifyBehavior = (typeof NOTIFY_BEHAVIORS)[number];

/** The name of a task created or suggested without one. */
export const DEFAULT_TASK_NAME = 'New Monitor';
