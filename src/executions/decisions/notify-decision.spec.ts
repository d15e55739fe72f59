import {
  channelsFor,
  decideFailureStreak,
  decideNotification,
  decideRetraction,
  decideValuesChanged,
  isConfirmed,
  stateKey,
  type RetractionInput,
  type NotifyInput,
  type StreakInput,
} from './notify-decision';

const base: NotifyInput = {
  conditionMet: true,
  currentState: { price: 10 },
  answer: 'The price is 10',
  taskState: 'active',
  notifyBehavior: 'once',
  lastNotifiedState: null,
  channels: ['email', 'webhook'],
};

describe('decideNotification', () => {
  it('should notify and complete the task when the condition is met and the behavior is once', () => {
    expect(decideNotification(base)).toEqual({
      notify: true,
      reason: 'condition_met',
      event: 'condition_met',
      channels: ['email', 'webhook'],
      completes_task: true,
    });
  });

  it('should stay silent when the condition is not met', () => {
    expect(decideNotification({ ...base, conditionMet: false })).toMatchObject({
      notify: false,
      reason: 'condition_not_met',
    });
  });

  it('should never notify for a completed task', () => {
    expect(decideNotification({ ...base, taskState: 'completed' })).toMatchObject({
      notify: false,
      reason: 'task_completed',
    });
  });

  it('should notify without completing when the behavior is always and the state changed', () => {
    const decision = decideNotification({
      ...base,
      notifyBehavior: 'always',
      lastNotifiedState: { price: 9 },
    });
    expect(decision).toMatchObject({ notify: true, completes_task: false });
  });

  it('should stay silent when the behavior is always and the state equals the last notified one', () => {
    const decision = decideNotification({
      ...base,
      notifyBehavior: 'always',
      lastNotifiedState: { price: 10 },
    });
    expect(decision).toMatchObject({ notify: false, reason: 'state_unchanged' });
  });

  it('should compare the answer when the model reports no state', () => {
    const same = decideNotification({
      ...base,
      notifyBehavior: 'always',
      currentState: {},
      lastNotifiedState: { answer: 'The price is 10' },
    });
    expect(same.notify).toBe(false);
  });

  it('should not complete a paused task that a manual run found met', () => {
    expect(decideNotification({ ...base, taskState: 'paused' })).toMatchObject({
      notify: true,
      completes_task: false,
    });
  });
});

describe('stateKey', () => {
  it('should ignore key order when it compares states', () => {
    expect(stateKey({ a: 1, b: { c: 2, d: 3 } })).toBe(stateKey({ b: { d: 3, c: 2 }, a: 1 }));
  });
});

describe('decideFailureStreak', () => {
  const streak: StreakInput = {
    failed: true,
    consecutiveFailures: 0,
    alerted: false,
    alertAfter: 3,
    configs: [{ type: 'email' }, { type: 'slack', events: ['condition_met', 'check_failing'] }],
  };

  it('should count the failure without alerting when the streak is shorter than the threshold', () => {
    expect(decideFailureStreak({ ...streak, consecutiveFailures: 1 })).toEqual({
      consecutiveFailures: 2,
      alerted: false,
      alert: null,
    });
  });

  it('should raise check_failing to subscribed channels when the streak reaches the threshold', () => {
    expect(decideFailureStreak({ ...streak, consecutiveFailures: 2 })).toEqual({
      consecutiveFailures: 3,
      alerted: true,
      alert: { event: 'check_failing', consecutive_failures: 3, channels: ['email', 'slack'] },
    });
  });

  it('should stay silent when the streak already alerted', () => {
    expect(decideFailureStreak({ ...streak, consecutiveFailures: 5, alerted: true })).toEqual({
      consecutiveFailures: 6,
      alerted: true,
      alert: null,
    });
  });

  it('should raise check_recovered to subscribed channels when a success ends a streak that alerted', () => {
    expect(
      decideFailureStreak({ ...streak, failed: false, consecutiveFailures: 4, alerted: true }),
    ).toEqual({
      consecutiveFailures: 0,
      alerted: false,
      alert: { event: 'check_recovered', consecutive_failures: 4, channels: ['email'] },
    });
  });

  it('should reset silently when a success ends a streak that did not alert', () => {
    expect(decideFailureStreak({ ...streak, failed: false, consecutiveFailures: 2 })).toEqual({
      consecutiveFailures: 0,
      alerted: false,
      alert: null,
    });
  });

  it('should alert at once when the threshold is one', () => {
    expect(decideFailureStreak({ ...streak, alertAfter: 1 }).alert?.event).toBe('check_failing');
  });
});

describe('channelsFor', () => {
  it('should pick every config when none lists events', () => {
    expect(channelsFor([{ type: 'email' }, { type: 'webhook' }], 'check_recovered')).toEqual([
      'email',
      'webhook',
    ]);
  });

  it('should leave out a config when its events do not include the event', () => {
    expect(
      channelsFor(
        [{ type: 'email', events: ['check_failing'] }, { type: 'webhook' }],
        'condition_met',
      ),
    ).toEqual(['webhook']);
  });
});

describe('confirmations', () => {
  it('should wait when fewer than N successful checks in a row were met', () => {
    expect(decideNotification({ ...base, confirmations: 2, previousMet: [false, true] })).toEqual({
      notify: false,
      reason: 'awaiting_confirmation',
      channels: [],
      completes_task: false,
      awaiting_confirmation: true,
    });
  });

  it('should notify when the last N successful checks were all met', () => {
    expect(
      decideNotification({ ...base, confirmations: 3, previousMet: [true, true] }),
    ).toMatchObject({
      notify: true,
      completes_task: true,
    });
  });

  it('should wait when the task has fewer successful checks than N', () => {
    expect(isConfirmed(2, [])).toBe(false);
    expect(isConfirmed(1, [])).toBe(true);
  });
});

describe('decideValuesChanged', () => {
  it('should send values_changed when values changed', () => {
    expect(decideValuesChanged([{ field: 'a' }], ['webhook'])).toEqual({
      notify: true,
      reason: 'values_changed',
      event: 'values_changed',
      channels: ['webhook'],
      completes_task: false,
    });
  });

  it('should stay silent when the run is the baseline or nothing changed', () => {
    expect(decideValuesChanged([], ['webhook'])).toMatchObject({
      notify: false,
      reason: 'values_unchanged',
    });
    expect(decideValuesChanged(null, ['webhook'])).toMatchObject({ notify: false });
  });
});

describe('decideRetraction', () => {
  const standing: RetractionInput = {
    notifyBehavior: 'always',
    taskState: 'active',
    claimedMet: false,
    previousClaimed: [true],
    confirmations: 1,
    lastNotifiedState: { price: 9 },
    notifiedExecutionId: 'execution-0',
    channels: ['webhook'],
  };

  it('should withdraw the standing alert when the model no longer claims the condition', () => {
    expect(decideRetraction(standing)).toEqual({
      retracted_execution_id: 'execution-0',
      channels: ['webhook'],
    });
  });

  it('should wait for N not-met checks in a row when confirmations is N', () => {
    expect(decideRetraction({ ...standing, confirmations: 2 })).toBeNull();
    expect(
      decideRetraction({ ...standing, confirmations: 2, previousClaimed: [false, true] }),
    ).not.toBeNull();
  });

  it('should withdraw nothing when the model still claims the condition (an evidence shortfall)', () => {
    expect(decideRetraction({ ...standing, claimedMet: true })).toBeNull();
  });

  it('should withdraw nothing when no alert stands or the task is not in always mode', () => {
    expect(decideRetraction({ ...standing, lastNotifiedState: null })).toBeNull();
    expect(decideRetraction({ ...standing, notifyBehavior: 'once' })).toBeNull();
  });
});
