import { decideReminder, type ReminderInput } from './reminder-decision';

const HOUR = 3_600_000;
const notifiedAt = new Date('2026-11-26T10:00:00Z');

function input(overrides: Partial<ReminderInput> = {}): ReminderInput {
  return {
    notifyBehavior: 'always',
    taskState: 'active',
    repeatEveryMs: HOUR,
    repeatMax: 3,
    alert: { notifiedAt, acknowledgedAt: null, repeatsSent: 0 },
    ...overrides,
  };
}

describe('decideReminder', () => {
  it('should remind every repeat_every after the notification when the alert stands', () => {
    expect(decideReminder(input())).toEqual({
      remind: true,
      at: new Date('2026-11-26T11:00:00Z'),
      repeat: 1,
    });
    expect(
      decideReminder(input({ alert: { notifiedAt, acknowledgedAt: null, repeatsSent: 2 } })),
    ).toEqual({ remind: true, at: new Date('2026-11-26T13:00:00Z'), repeat: 3 });
  });

  it('should stop when repeat_max reminders went out', () => {
    expect(
      decideReminder(input({ alert: { notifiedAt, acknowledgedAt: null, repeatsSent: 3 } })),
    ).toEqual({ remind: false, reason: 'repeat_max_reached' });
  });

  it('should stop when the alert is acknowledged', () => {
    const acknowledgedAt = new Date('2026-11-26T10:30:00Z');
    expect(
      decideReminder(input({ alert: { notifiedAt, acknowledgedAt, repeatsSent: 0 } })),
    ).toEqual({ remind: false, reason: 'acknowledged' });
  });

  it('should stop when no alert stands (retracted or never sent)', () => {
    expect(decideReminder(input({ alert: null }))).toEqual({
      remind: false,
      reason: 'no_standing_alert',
    });
  });

  it('should stop when the task is paused, completed or deleted', () => {
    expect(decideReminder(input({ taskState: 'paused' }))).toEqual({
      remind: false,
      reason: 'task_paused',
    });
    expect(decideReminder(input({ taskState: 'completed' }))).toEqual({
      remind: false,
      reason: 'task_completed',
    });
    expect(decideReminder(input({ taskState: null }))).toEqual({
      remind: false,
      reason: 'task_deleted',
    });
  });

  it('should not remind when the task has no repeat_every or does not notify always', () => {
    expect(decideReminder(input({ repeatEveryMs: null }))).toEqual({
      remind: false,
      reason: 'no_reminders',
    });
    expect(decideReminder(input({ notifyBehavior: 'once' }))).toEqual({
      remind: false,
      reason: 'no_reminders',
    });
  });
});
