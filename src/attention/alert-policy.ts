import { BadRequestException } from '@nestjs/common';
import { formatDuration, parseDuration } from '../config/duration';
import type { NotifyBehavior } from '../search/search.types';
import type { AttentionConfig } from './attention.config';

/** A task's `alert_policy`, as stored and shown (docs/attention.md, "Alert policy"). */
export interface AlertPolicy {
  cooldown: string | null;
  repeat_every: string | null;
  repeat_max: number;
}

export type AlertPolicyLimits = Pick<AttentionConfig, 'alertMinCooldownMs' | 'alertMinRepeatMs'>;

/** The longest `cooldown` and `repeat_every` (docs/attention.md, "Alert policy"). */
export const MAX_ALERT_DURATION_MS = 30 * 86_400_000;
export const DEFAULT_REPEAT_MAX = 10;
export const MAX_REPEAT_MAX = 100;
const FIELDS = ['cooldown', 'repeat_every', 'repeat_max'];

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid alert_policy: ${reason}`);
}

/**
 * Checks the `alert_policy` of a request against the task's (new or kept) `notify_behavior`:
 * null clears it; otherwise every field is optional. Throws
 * `BadRequestException('Invalid alert_policy: <reason>')` (docs/attention.md, "Alert policy").
 */
export function validateAlertPolicy(
  value: unknown,
  notifyBehavior: NotifyBehavior,
  limits: AlertPolicyLimits,
): AlertPolicy | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('must be an object or null');
  }
  const entry = value as Record<string, unknown>;
  const unknown = Object.keys(entry).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined) throw invalid(`unknown field '${unknown}'`);
  const policy: AlertPolicy = {
    cooldown: durationField(entry, 'cooldown', limits.alertMinCooldownMs),
    repeat_every: durationField(entry, 'repeat_every', limits.alertMinRepeatMs),
    repeat_max: repeatMax(entry.repeat_max),
  };
  checkNotifyBehavior(policy, notifyBehavior);
  return policy;
}

/**
 * The policy an update leaves: the given one checked (`undefined` when the request names none:
 * the stored one stays), and a stored `repeat_every` checked again when the update changes
 * `notify_behavior` away from `always`.
 */
export function resolveAlertPolicyUpdate(
  given: unknown,
  stored: AlertPolicy | null,
  notifyBehavior: NotifyBehavior,
  limits: AlertPolicyLimits,
): AlertPolicy | null {
  if (given !== undefined) return validateAlertPolicy(given, notifyBehavior, limits);
  if (stored !== null) checkNotifyBehavior(stored, notifyBehavior);
  return stored;
}

/**
 * The policy's durations in milliseconds (null where it sets none). A stored duration past the
 * longest one allowed (a row saved before the limit existed) counts as the longest, so the times a
 * check computes from it stay valid dates.
 */
export function alertPolicyTimes(policy: AlertPolicy | null): {
  cooldownMs: number | null;
  repeatEveryMs: number | null;
} {
  const ms = (text: string | null | undefined) => {
    const parsed = text ? parseDuration(text, 'api') : null;
    return parsed === null ? null : Math.min(parsed, MAX_ALERT_DURATION_MS);
  };
  return { cooldownMs: ms(policy?.cooldown), repeatEveryMs: ms(policy?.repeat_every) };
}

function checkNotifyBehavior(policy: AlertPolicy, notifyBehavior: NotifyBehavior): void {
  if (policy.repeat_every !== null && notifyBehavior !== 'always') {
    throw invalid("repeat_every needs notify_behavior 'always'");
  }
}

function durationField(
  entry: Record<string, unknown>,
  name: 'cooldown' | 'repeat_every',
  minMs: number,
): string | null {
  const value = entry[name];
  if (value === undefined || value === null) return null;
  const ms = typeof value === 'string' ? parseDuration(value, 'api') : null;
  if (ms === null) {
    throw invalid(`${name} must be a duration such as 30s, 15m, 2h or 1d`);
  }
  if (ms < minMs) throw invalid(`${name} must be at least ${formatDuration(minMs)}`);
  if (ms > MAX_ALERT_DURATION_MS) {
    throw invalid(`${name} must be at most ${formatDuration(MAX_ALERT_DURATION_MS)}`);
  }
  return value as string;
}

function repeatMax(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_REPEAT_MAX;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_REPEAT_MAX) {
    throw invalid(`repeat_max must be an integer from 1 to ${MAX_REPEAT_MAX}`);
  }
  return value as number;
}
