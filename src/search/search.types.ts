export interface GroundingSource {
  uri: string;
  title: string;
}

/** How a task notifies (`notify_behavior`): what a suggestion proposes and a task keeps. */
export type NotifyBehavior = 'once' | 'always';

/** The name of a task created or suggested without one. */
export const DEFAULT_TASK_NAME = 'New Monitor';
