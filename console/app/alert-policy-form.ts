/** A task's alert policy as the task form edits it, and the request body it makes. */
import type { NotifyBehavior, Task } from './types';

/** Text as typed: durations such as `15m`, and `repeat_max` (blank: the API's default). */
export interface AlertPolicyValues {
  cooldown: string;
  repeat_every: string;
  repeat_max: string;
}

export function alertPolicyValuesOf(task: Pick<Task, 'alert_policy'> | null): AlertPolicyValues {
  const policy = task?.alert_policy;
  return {
    cooldown: policy?.cooldown ?? '',
    repeat_every: policy?.repeat_every ?? '',
    repeat_max: policy ? String(policy.repeat_max) : '',
  };
}

/** Whether reminders can be set: only `always` tasks remind (docs/attention.md). */
export function remindersAllowed(notifyBehavior: NotifyBehavior): boolean {
  return notifyBehavior === 'always';
}

/**
 * The policy to send: the fields filled in, trimmed, with `repeat_every` and `repeat_max` only
 * where reminders are allowed; null when nothing is set. `repeat_max` goes as a number when it
 * is one and as typed otherwise, for the API to say what is wrong with it.
 */
export function alertPolicyBody(
  values: AlertPolicyValues,
  notifyBehavior: NotifyBehavior,
): Record<string, unknown> | null {
  const cooldown = values.cooldown.trim();
  const reminders = remindersAllowed(notifyBehavior);
  const repeatEvery = reminders ? values.repeat_every.trim() : '';
  const repeatMax = reminders ? values.repeat_max.trim() : '';
  const body: Record<string, unknown> = {};
  if (cooldown !== '') body.cooldown = cooldown;
  if (repeatEvery !== '') body.repeat_every = repeatEvery;
  if (repeatMax !== '') body.repeat_max = /^\d+$/.test(repeatMax) ? Number(repeatMax) : repeatMax;
  return Object.keys(body).length === 0 ? null : body;
}
