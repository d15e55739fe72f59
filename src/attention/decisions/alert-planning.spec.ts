import { planAlert, type AlertPlanInput } from './alert-planning';

const now = new Date('2026-11-26T10:00:00Z');
const base: AlertPlanInput = {
  policy: { cooldown: '1h', repeat_every: '15m', repeat_max: 3 },
  notifyBehavior: 'always',
  taskState: 'active',
  alertSentAt: null,
  alertBefore: null,
  alertAfter: 'e2',
  events: ['condition_met'],
  now,
};

describe('planAlert', () => {
  it('should send a first alert now, start the cooldown and plan the first reminder', () => {
    expect(planAlert(base)).toEqual({
      alertSentAt: now,
      cooldownUntil: null,
      firstReminderAt: new Date('2026-11-26T10:15:00Z'),
    });
  });

  it('should hold an alert inside the cooldown until its end', () => {
    const plan = planAlert({ ...base, alertSentAt: new Date('2026-11-26T09:30:00Z') });
    expect(plan.cooldownUntil).toEqual(new Date('2026-11-26T10:30:00Z'));
    expect(plan.alertSentAt).toEqual(new Date('2026-11-26T10:30:00Z'));
  });

  it('should leave the cooldown alone for events that never wait', () => {
    const sentAt = new Date('2026-11-26T09:30:00Z');
    expect(
      planAlert({
        ...base,
        alertSentAt: sentAt,
        events: ['condition_retracted'],
        alertAfter: null,
      }),
    ).toEqual({ alertSentAt: sentAt, cooldownUntil: null, firstReminderAt: null });
  });

  it('should plan no reminder for an alert that already stood, or without always, or a pause', () => {
    expect(planAlert({ ...base, alertBefore: 'e2' }).firstReminderAt).toBeNull();
    expect(planAlert({ ...base, notifyBehavior: 'once' }).firstReminderAt).toBeNull();
    expect(planAlert({ ...base, taskState: 'completed' }).firstReminderAt).toBeNull();
    expect(
      planAlert({ ...base, policy: { cooldown: null, repeat_every: null, repeat_max: 10 } })
        .firstReminderAt,
    ).toBeNull();
  });
});
