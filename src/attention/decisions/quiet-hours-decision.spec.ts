import { DEFAULT_PREFERENCES } from '../preferences';
import { decideQuietHours } from './quiet-hours-decision';

const night = {
  ...DEFAULT_PREFERENCES,
  time_zone: 'Europe/Paris',
  quiet_hours: { start: '22:00', end: '07:00' },
};
// 23:30 CET on 2026-03-28; the night ends at 07:00 CEST = 05:00Z on the 29th.
const inTheNight = new Date('2026-03-28T22:30:00Z');

describe('decideQuietHours', () => {
  it.each(['condition_met', 'values_changed', 'condition_retracted', 'reminder'] as const)(
    'should hold %s until the end of the quiet hours when it falls in them',
    (event) => {
      expect(decideQuietHours(event, inTheNight, night)).toEqual({
        hold: true,
        until: new Date('2026-03-29T05:00:00Z'),
      });
    },
  );

  it.each(['check_failing', 'check_recovered', 'test', 'digest'] as const)(
    'should send %s at once when it falls in the quiet hours',
    (event) => {
      expect(decideQuietHours(event, inTheNight, night)).toEqual({ hold: false });
    },
  );

  it('should send at once when the delivery falls outside the quiet hours', () => {
    expect(decideQuietHours('condition_met', new Date('2026-03-28T12:00:00Z'), night)).toEqual({
      hold: false,
    });
  });
});
