import { BadRequestException } from '@nestjs/common';
import {
  alertPolicyTimes,
  resolveAlertPolicyUpdate,
  validateAlertPolicy,
  type AlertPolicyLimits,
} from './alert-policy';

const limits: AlertPolicyLimits = { alertMinCooldownMs: 60_000, alertMinRepeatMs: 900_000 };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).message;
  }
  throw new Error('expected a refusal');
}

describe('validateAlertPolicy', () => {
  it('should keep the given durations and default repeat_max to 10 when it is absent', () => {
    expect(validateAlertPolicy({ cooldown: '1h', repeat_every: '15m' }, 'always', limits)).toEqual({
      cooldown: '1h',
      repeat_every: '15m',
      repeat_max: 10,
    });
    expect(validateAlertPolicy({}, 'once', limits)).toEqual({
      cooldown: null,
      repeat_every: null,
      repeat_max: 10,
    });
  });

  it('should clear the policy when the value is null', () => {
    expect(validateAlertPolicy(null, 'always', limits)).toBeNull();
  });

  it('should accept the bounds themselves when a value sits on one', () => {
    expect(validateAlertPolicy({ cooldown: '1m' }, 'once', limits)?.cooldown).toBe('1m');
    expect(validateAlertPolicy({ cooldown: '30d' }, 'once', limits)?.cooldown).toBe('30d');
    expect(validateAlertPolicy({ repeat_every: '720h' }, 'always', limits)?.repeat_every).toBe(
      '720h',
    );
    expect(validateAlertPolicy({ repeat_max: 100 }, 'once', limits)?.repeat_max).toBe(100);
  });

  it.each([
    [[], 'must be an object or null'],
    ['1h', 'must be an object or null'],
    [{ cooldown: '1h', snooze: '1h' }, "unknown field 'snooze'"],
    [{ cooldown: 60 }, 'cooldown must be a duration such as 30s, 15m, 2h or 1d'],
    [{ cooldown: '1.5h' }, 'cooldown must be a duration such as 30s, 15m, 2h or 1d'],
    [{ cooldown: '30s' }, 'cooldown must be at least 1m'],
    [{ cooldown: '31d' }, 'cooldown must be at most 30d'],
    [{ repeat_every: '14m' }, 'repeat_every must be at least 15m'],
    [{ repeat_every: '31d' }, 'repeat_every must be at most 30d'],
    [{ repeat_every: '999999999d' }, 'repeat_every must be at most 30d'],
    [{ cooldown: '999999999d' }, 'cooldown must be at most 30d'],
    [{ repeat_max: 0 }, 'repeat_max must be an integer from 1 to 100'],
    [{ repeat_max: 101 }, 'repeat_max must be an integer from 1 to 100'],
    [{ repeat_max: 2.5 }, 'repeat_max must be an integer from 1 to 100'],
    [{ repeat_max: '3' }, 'repeat_max must be an integer from 1 to 100'],
  ])('should refuse %p when a field is invalid', (value, reason) => {
    expect(refusal(() => validateAlertPolicy(value, 'always', limits))).toBe(
      `Invalid alert_policy: ${reason}`,
    );
  });

  it('should refuse repeat_every when notify_behavior is not always', () => {
    for (const behavior of ['once', 'on_change'] as const) {
      expect(refusal(() => validateAlertPolicy({ repeat_every: '1h' }, behavior, limits))).toBe(
        "Invalid alert_policy: repeat_every needs notify_behavior 'always'",
      );
    }
  });

  it('should follow the configured minimums when they differ from the defaults', () => {
    const strict = { alertMinCooldownMs: 300_000, alertMinRepeatMs: 3_600_000 };
    expect(refusal(() => validateAlertPolicy({ cooldown: '2m' }, 'once', strict))).toBe(
      'Invalid alert_policy: cooldown must be at least 5m',
    );
    expect(refusal(() => validateAlertPolicy({ repeat_every: '30m' }, 'always', strict))).toBe(
      'Invalid alert_policy: repeat_every must be at least 1h',
    );
  });
});

describe('resolveAlertPolicyUpdate', () => {
  const stored = { cooldown: null, repeat_every: '1h', repeat_max: 3 };

  it('should keep the stored policy when the update names none', () => {
    expect(resolveAlertPolicyUpdate(undefined, stored, 'always', limits)).toBe(stored);
    expect(resolveAlertPolicyUpdate(undefined, null, 'once', limits)).toBeNull();
  });

  it('should refuse when the update changes notify_behavior while repeat_every is stored', () => {
    expect(refusal(() => resolveAlertPolicyUpdate(undefined, stored, 'once', limits))).toBe(
      "Invalid alert_policy: repeat_every needs notify_behavior 'always'",
    );
  });

  it('should take the given policy when the update names one', () => {
    expect(resolveAlertPolicyUpdate(null, stored, 'once', limits)).toBeNull();
    expect(resolveAlertPolicyUpdate({ cooldown: '5m' }, stored, 'once', limits)).toEqual({
      cooldown: '5m',
      repeat_every: null,
      repeat_max: 10,
    });
  });
});

describe('alertPolicyTimes', () => {
  it('should give milliseconds when a duration is set and null when it is not', () => {
    expect(alertPolicyTimes({ cooldown: '2h', repeat_every: null, repeat_max: 10 })).toEqual({
      cooldownMs: 7_200_000,
      repeatEveryMs: null,
    });
    expect(alertPolicyTimes(null)).toEqual({ cooldownMs: null, repeatEveryMs: null });
  });

  it('should count a stored duration past 30d as 30d when a row predates the limit', () => {
    const thirtyDays = 30 * 86_400_000;
    expect(
      alertPolicyTimes({ cooldown: '999999999d', repeat_every: '999999999d', repeat_max: 10 }),
    ).toEqual({ cooldownMs: thirtyDays, repeatEveryMs: thirtyDays });
  });
});
