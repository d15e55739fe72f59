import { decideChannelPause, type ChannelPauseInput } from './channel-pause-decision';

function input(overrides: Partial<ChannelPauseInput>): ChannelPauseInput {
  return {
    event: 'condition_met',
    succeeded: false,
    error: 'HTTP 404',
    consecutiveFailures: 0,
    alreadyPaused: false,
    pauseAfter: 10,
    ...overrides,
  };
}

describe('decideChannelPause', () => {
  it('should pause with the count and the last error when the tenth failure in a row ends', () => {
    expect(decideChannelPause(input({ consecutiveFailures: 9 }))).toEqual({
      consecutiveFailures: 10,
      pause: { reason: '10 deliveries in a row failed: HTTP 404' },
    });
  });

  it('should only count when the failures stay under the limit', () => {
    expect(decideChannelPause(input({ consecutiveFailures: 8 }))).toEqual({
      consecutiveFailures: 9,
      pause: null,
    });
  });

  it('should reset the count when a delivery succeeds', () => {
    expect(decideChannelPause(input({ succeeded: true, consecutiveFailures: 9 }))).toEqual({
      consecutiveFailures: 0,
      pause: null,
    });
  });

  it('should not pause again when the config is paused already', () => {
    expect(decideChannelPause(input({ consecutiveFailures: 12, alreadyPaused: true }))).toEqual({
      consecutiveFailures: 13,
      pause: null,
    });
  });

  it('should leave the count when the delivery is a test send', () => {
    expect(decideChannelPause(input({ event: 'test', consecutiveFailures: 9 }))).toEqual({
      consecutiveFailures: 9,
      pause: null,
    });
  });

  it('should follow the configured limit when it differs from the default', () => {
    expect(decideChannelPause(input({ pauseAfter: 3, consecutiveFailures: 2 })).pause).toEqual({
      reason: '3 deliveries in a row failed: HTTP 404',
    });
  });
});
