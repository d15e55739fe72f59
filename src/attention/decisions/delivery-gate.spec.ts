import { DEFAULT_PREFERENCES } from '../preferences';
import { decideDeliveryGate, type DeliveryGateInput } from './delivery-gate';

const now = new Date('2026-11-26T23:30:00Z');
const quiet = { ...DEFAULT_PREFERENCES, quiet_hours: { start: '22:00', end: '07:00' } };
const base: DeliveryGateInput = {
  event: 'condition_met',
  pauseReason: null,
  reminderDue: null,
  digest: false,
  cooldownUntil: null,
  preferences: DEFAULT_PREFERENCES,
  now,
};

describe('decideDeliveryGate', () => {
  it('should send at once without pause, reminder, digest, cooldown or quiet hours', () => {
    expect(decideDeliveryGate(base)).toEqual({ kind: 'send' });
  });

  it('should skip a paused config before anything else', () => {
    expect(
      decideDeliveryGate({
        ...base,
        pauseReason: '10 deliveries in a row failed: HTTP 404',
        digest: true,
      }),
    ).toEqual({ kind: 'skip', reason: 'Paused: 10 deliveries in a row failed: HTTP 404' });
  });

  it('should drop a reminder that is no longer due and keep one that is', () => {
    expect(decideDeliveryGate({ ...base, event: 'reminder', reminderDue: false })).toEqual({
      kind: 'drop',
    });
    expect(decideDeliveryGate({ ...base, event: 'reminder', reminderDue: true })).toEqual({
      kind: 'send',
    });
  });

  it('should gather the events of a digest config, even in quiet hours', () => {
    expect(decideDeliveryGate({ ...base, digest: true, preferences: quiet })).toEqual({
      kind: 'digest',
    });
  });

  it('should hold an alert until its cooldown ends, then release it', () => {
    const until = new Date('2026-11-26T23:45:00Z');
    expect(decideDeliveryGate({ ...base, cooldownUntil: until })).toEqual({
      kind: 'hold',
      reason: 'cooldown',
      until,
    });
    expect(
      decideDeliveryGate({ ...base, cooldownUntil: new Date('2026-11-26T23:29:00Z') }),
    ).toEqual({ kind: 'release' });
  });

  it('should hold alerts in quiet hours until they end, but not failures', () => {
    expect(decideDeliveryGate({ ...base, preferences: quiet })).toEqual({
      kind: 'hold',
      reason: 'quiet_hours',
      until: new Date('2026-11-27T07:00:00Z'),
    });
    expect(decideDeliveryGate({ ...base, event: 'check_failing', preferences: quiet })).toEqual({
      kind: 'send',
    });
  });
});
