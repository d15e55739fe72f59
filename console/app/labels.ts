/** What the console shows for the API's enum values (docs/console.md, "Words, not codes"). */
import type { NotifyBehavior, TaskState } from './types';

export const TASK_STATES: Record<TaskState, string> = {
  active: 'Active',
  paused: 'Paused',
  completed: 'Completed',
};

export const EXECUTION_STATUSES: Record<string, string> = {
  pending: 'Pending',
  running: 'Running',
  retrying: 'Retrying',
  success: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const SEND_STATUSES: Record<string, string> = {
  success: 'Delivered',
  failed: 'Failed',
  held: 'Held',
  skipped: 'Skipped',
};

export const SEND_EVENTS: Record<string, string> = {
  condition_met: 'Condition met',
  check_failing: 'Checks failing',
  check_recovered: 'Checks recovered',
  values_changed: 'Values changed',
  condition_retracted: 'Alert withdrawn',
  reminder: 'Reminder',
  digest: 'Digest',
  test: 'Test send',
};

/** Whether the person has seen a task's standing alert (docs/attention.md, "Acknowledge"). */
export const ALERT_STATES: Record<string, string> = {
  acknowledged: 'Acknowledged',
  unacknowledged: 'Not acknowledged',
};

/** A notification config that paused itself after deliveries in a row failed. */
export const CONFIG_STATES: Record<string, string> = {
  paused: 'Paused',
};

export const DIGEST_FREQUENCIES: Record<string, string> = {
  daily: 'Daily',
  weekly: 'Weekly',
};

/** ISO weekdays, as the digest schedule numbers them (1 = Monday). */
export const WEEKDAYS: Record<string, string> = {
  1: 'Monday',
  2: 'Tuesday',
  3: 'Wednesday',
  4: 'Thursday',
  5: 'Friday',
  6: 'Saturday',
  7: 'Sunday',
};

export const NOTIFY_BEHAVIORS: Record<NotifyBehavior, string> = {
  once: 'Once, then complete',
  always: 'Whenever the verdict changes',
  on_change: 'When a value changes',
};

export const USER_STATES: Record<string, string> = {
  active: 'Active',
  deactivated: 'Deactivated',
};

/** The scheduler queue's job states. */
export const JOB_STATES: Record<string, string> = {
  created: 'Waiting',
  retry: 'Waiting to retry',
  active: 'Running',
  completed: 'Completed',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

/** A page's status in a check (docs/pages.md, "Page statuses"). */
export const PAGE_STATUSES: Record<string, string> = {
  new: 'First read',
  same: 'Unchanged',
  changed: 'Changed',
  error: 'Error',
};

/** What a page rule decides without a model (docs/pages.md, "Page rules"). */
export const PAGE_RULES: Record<string, string> = {
  none: 'None: a model reads the pages',
  changed: 'Met when a page changes',
  new_items: 'Met when a list or feed shows new items',
  contains: 'Met when a page contains the text',
  not_contains: 'Met when no page contains the text',
  below: 'Met when a value is below a number',
  above: 'Met when a value is above a number',
  equals: 'Met when a value equals',
};

/** Where a page's value is read from (docs/pages.md, "Values read from pages"). */
export const VALUE_SOURCES: Record<string, string> = {
  price: 'Price (structured data, or the selector)',
  availability: 'Availability (structured data)',
  number: 'First number under the selector',
  text: 'Text under the selector',
  json: 'JSON path (JSON pages)',
};

/** The label of `value`, or the value itself when the service sends one the console lacks. */
export function labelOf(labels: Record<string, string>, value: string): string {
  return labels[value] ?? value;
}
