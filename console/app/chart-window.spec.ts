import { MIN_WINDOW_SECONDS, timeWindow } from './chart-window';

describe('timeWindow', () => {
  const NOON = Date.parse('2026-11-26T12:00:00Z') / 1000;

  it('should centre a two-hour window on the moment when a chart has one point', () => {
    expect(timeWindow(NOON, NOON)).toEqual([NOON - 3600, NOON + 3600]);
  });

  it('should widen to two hours around their middle when the points are minutes apart', () => {
    expect(timeWindow(NOON, NOON + 600)).toEqual([NOON + 300 - 3600, NOON + 300 + 3600]);
  });

  it('should span exactly the points when they are two hours or more apart', () => {
    expect(timeWindow(NOON, NOON + MIN_WINDOW_SECONDS)).toEqual([NOON, NOON + MIN_WINDOW_SECONDS]);
    expect(timeWindow(NOON - 86400 * 30, NOON)).toEqual([NOON - 86400 * 30, NOON]);
  });
});
