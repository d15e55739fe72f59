import { deliveriesWaitingTurn, type ReleaseEntry } from './release-order';

const hook = 'webhook:https://hooks.example.com/in';
const at = (minute: number) => new Date(`2026-11-27T06:${String(minute).padStart(2, '0')}:00Z`);
const seven = new Date('2026-11-27T07:00:00Z');

function held(id: string, minute: number, heldUntil = seven, destination = hook) {
  return { id, destination, occurredAt: at(minute), heldUntil };
}

function sending(id: string, minute: number): ReleaseEntry {
  return { id, destination: hook, occurredAt: at(minute), heldUntil: null };
}

describe('deliveriesWaitingTurn', () => {
  it('should let only the earliest event of a destination go when several are released at once', () => {
    const released = [held('c', 30), held('a', 10), held('b', 20)];
    expect(deliveriesWaitingTurn(released, released)).toEqual(new Set(['b', 'c']));
  });

  it('should let the next go once the one before it is no longer held or being sent', () => {
    const released = [held('c', 30), held('b', 20)];
    expect(deliveriesWaitingTurn(released, released)).toEqual(new Set(['c']));
    expect(deliveriesWaitingTurn([held('c', 30)], [held('c', 30)])).toEqual(new Set());
  });

  it('should hold a delivery back for an earlier one being sent, by this worker or another', () => {
    expect(deliveriesWaitingTurn([held('b', 20)], [sending('a', 10), held('b', 20)])).toEqual(
      new Set(['b']),
    );
  });

  it('should not wait for an earlier event held longer than itself', () => {
    const later = new Date('2026-11-27T09:00:00Z');
    expect(deliveriesWaitingTurn([held('b', 20)], [held('a', 10, later), held('b', 20)])).toEqual(
      new Set(),
    );
  });

  it('should order events of the same time by id and leave other destinations alone', () => {
    const released = [held('y', 10), held('x', 10), held('z', 5, seven, 'slack:https://hooks/x')];
    expect(deliveriesWaitingTurn(released, released)).toEqual(new Set(['y']));
  });
});
