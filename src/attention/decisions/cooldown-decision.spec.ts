import { decideCooldown, releaseCooldown, type WaitingAlert } from './cooldown-decision';

const HOUR = 3_600_000;
const lastSentAt = new Date('2026-11-26T10:00:00Z');

describe('decideCooldown', () => {
  const base = { cooldownMs: HOUR, alertSentAt: lastSentAt };
  const until = new Date('2026-11-26T11:00:00Z');

  it('should wait until the end of the cooldown when a met condition comes inside it', () => {
    expect(
      decideCooldown({ ...base, event: 'condition_met', now: new Date('2026-11-26T10:20:00Z') }),
    ).toEqual({ wait: true, until, alertSentAt: until });
    expect(
      decideCooldown({ ...base, event: 'values_changed', now: new Date('2026-11-26T10:59:59Z') }),
    ).toEqual({ wait: true, until, alertSentAt: until });
  });

  it('should send now, and start a new cooldown, when the cooldown has ended', () => {
    const now = new Date('2026-11-26T11:00:00Z');
    expect(decideCooldown({ ...base, event: 'condition_met', now })).toEqual({
      wait: false,
      alertSentAt: now,
    });
  });

  it('should join the alerts that wait for a cooldown still to end', () => {
    expect(
      decideCooldown({
        ...base,
        alertSentAt: until,
        event: 'condition_met',
        now: new Date('2026-11-26T10:59:00Z'),
      }),
    ).toEqual({ wait: true, until, alertSentAt: until });
  });

  it.each(['check_failing', 'check_recovered', 'condition_retracted', 'test'] as const)(
    'should send %s now when it comes inside the cooldown, leaving the cooldown as it is',
    (event) => {
      expect(decideCooldown({ ...base, event, now: new Date('2026-11-26T10:20:00Z') })).toEqual({
        wait: false,
        alertSentAt: lastSentAt,
      });
    },
  );

  it('should send now when the task has no cooldown or never alerted', () => {
    const now = new Date('2026-11-26T10:20:00Z');
    expect(decideCooldown({ ...base, cooldownMs: null, event: 'condition_met', now })).toEqual({
      wait: false,
      alertSentAt: now,
    });
    expect(decideCooldown({ ...base, alertSentAt: null, event: 'condition_met', now })).toEqual({
      wait: false,
      alertSentAt: now,
    });
  });
});

describe('releaseCooldown', () => {
  const alert = (recordId: string, event: WaitingAlert['event'], minute: number): WaitingAlert => ({
    recordId,
    event,
    occurredAt: new Date(`2026-11-26T10:${String(minute).padStart(2, '0')}:00Z`),
  });

  it('should send the latest of each event type folding the others when several wait', () => {
    const waiting = [
      alert('a', 'condition_met', 10),
      alert('b', 'values_changed', 15),
      alert('c', 'condition_met', 30),
      alert('d', 'condition_met', 20),
    ];
    expect(releaseCooldown(waiting, null)).toEqual({
      send: [
        { recordId: 'c', event: 'condition_met', folded: 3 },
        { recordId: 'b', event: 'values_changed', folded: 1 },
      ],
      skip: ['a', 'd'],
    });
  });

  it('should drop the alerts a later execution withdrew when a retraction came after them', () => {
    const waiting = [alert('a', 'condition_met', 10), alert('b', 'condition_met', 20)];
    expect(releaseCooldown(waiting, new Date('2026-11-26T10:25:00Z'))).toEqual({
      send: [],
      skip: ['a', 'b'],
    });
  });

  it('should fold only the alerts after the withdrawal when the condition was met again', () => {
    const waiting = [
      alert('a', 'condition_met', 10),
      alert('b', 'condition_met', 30),
      alert('c', 'condition_met', 40),
    ];
    expect(releaseCooldown(waiting, new Date('2026-11-26T10:20:00Z'))).toEqual({
      send: [{ recordId: 'c', event: 'condition_met', folded: 2 }],
      skip: ['a', 'b'],
    });
  });

  it('should send nothing when nothing waits', () => {
    expect(releaseCooldown([], null)).toEqual({ send: [], skip: [] });
  });
});
