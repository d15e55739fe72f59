import { readConfig } from '../config/config-slice';
import { ConfigValidationError } from '../config/env-reader';
import { attentionConfig } from './attention.config';

describe('attentionConfig', () => {
  it('should apply the documented defaults when the environment is empty', () => {
    expect(readConfig({}, { attention: attentionConfig }).attention).toEqual({
      alertMinCooldownMs: 60_000,
      alertMinRepeatMs: 900_000,
      channelPauseAfterFailures: 10,
    });
  });

  it('should read each variable when it is set', () => {
    const env = {
      ALERT_MIN_COOLDOWN: '30s',
      ALERT_MIN_REPEAT: '1m',
      CHANNEL_PAUSE_AFTER_FAILURES: '3',
    };
    expect(readConfig(env, { attention: attentionConfig }).attention).toEqual({
      alertMinCooldownMs: 30_000,
      alertMinRepeatMs: 60_000,
      channelPauseAfterFailures: 3,
    });
  });

  it('should name every bad variable when several are invalid', () => {
    const env = { ALERT_MIN_COOLDOWN: 'soon', CHANNEL_PAUSE_AFTER_FAILURES: '0' };
    expect(() => readConfig(env, { attention: attentionConfig })).toThrow(ConfigValidationError);
    expect(() => readConfig(env, { attention: attentionConfig })).toThrow(
      /ALERT_MIN_COOLDOWN[\s\S]*CHANNEL_PAUSE_AFTER_FAILURES/,
    );
  });
});
