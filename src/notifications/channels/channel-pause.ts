import type { NotificationConfig } from './channel-registry';

/*
 * A config that paused itself after deliveries in a row failed (docs/attention.md, "Channels
 * that pause themselves"): `paused_at` and `pause_reason` sit in the config as its owner sees it.
 */

export function paused(config: NotificationConfig, at: Date, reason: string): NotificationConfig {
  return { ...config, paused_at: at.toISOString(), pause_reason: reason };
}

/** The config without its pause. */
export function resumed(config: NotificationConfig): NotificationConfig {
  const { paused_at: _at, pause_reason: _reason, ...rest } = config;
  return rest;
}
