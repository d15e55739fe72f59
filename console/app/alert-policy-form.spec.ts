import { alertPolicyBody, alertPolicyValuesOf } from './alert-policy-form';

describe('alertPolicyBody', () => {
  it('should send the fields filled in, trimmed, with repeat_max as a number', () => {
    expect(
      alertPolicyBody({ cooldown: ' 15m ', repeat_every: '1h', repeat_max: ' 3 ' }, 'always'),
    ).toEqual({ cooldown: '15m', repeat_every: '1h', repeat_max: 3 });
  });

  it('should send a repeat_max that is no whole number as typed, for the API to refuse', () => {
    expect(
      alertPolicyBody({ cooldown: '', repeat_every: '1h', repeat_max: '2.5' }, 'always'),
    ).toEqual({ repeat_every: '1h', repeat_max: '2.5' });
  });

  it('should leave reminders out of a task that is not always', () => {
    expect(
      alertPolicyBody({ cooldown: '5m', repeat_every: '1h', repeat_max: '3' }, 'on_change'),
    ).toEqual({ cooldown: '5m' });
    expect(
      alertPolicyBody({ cooldown: ' ', repeat_every: '1h', repeat_max: '' }, 'once'),
    ).toBeNull();
  });
});

describe('alertPolicyValuesOf', () => {
  it('should show a stored policy, blank where it sets nothing, and blanks without one', () => {
    expect(
      alertPolicyValuesOf({ alert_policy: { cooldown: '2h', repeat_every: null, repeat_max: 10 } }),
    ).toEqual({ cooldown: '2h', repeat_every: '', repeat_max: '10' });
    expect(alertPolicyValuesOf(null)).toEqual({ cooldown: '', repeat_every: '', repeat_max: '' });
  });
});
