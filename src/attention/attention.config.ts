import { defineConfig, type ConfigOf } from '../config/config-slice';

export const attentionConfig = defineConfig('attention', (read) => ({
  /** The shortest `alert_policy.cooldown` a task may ask for (docs/attention.md, "Cooldown"). */
  alertMinCooldownMs: read.duration('ALERT_MIN_COOLDOWN', '1m'),
  /** The shortest `alert_policy.repeat_every` (docs/attention.md, "Reminders"). */
  alertMinRepeatMs: read.duration('ALERT_MIN_REPEAT', '15m'),
  /**
   * Deliveries in a row to one notification config that end failed before the config pauses
   * itself (docs/attention.md, "Channels that pause themselves").
   */
  channelPauseAfterFailures: read.integer('CHANNEL_PAUSE_AFTER_FAILURES', 10, 1, 1000),
}));
export type AttentionConfig = ConfigOf<typeof attentionConfig>;
