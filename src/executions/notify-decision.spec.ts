import { decideNotification, stateKey, type NotifyInput } from './notify-decision';

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
