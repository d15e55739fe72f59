/**
 * The notification channels a task can use, and the fields a person fills in for each: the list
 * is channel-list.ts, written from the channels' definitions (console/generate.ts).
 */
import type { Channel } from './channel';
import { CHANNELS } from './channel-list';

export { CHANNELS };

/** A config as the console reads and edits it: any channel's fields, by name. */
export type ChannelValues = { type: string } & Record<string, unknown>;

/** A new config of `channel`: its type and the defaults of its fields. */
export function newConfig(channel: Channel): ChannelValues {
  return {
    type: channel.type,
    ...Object.fromEntries(
      channel.fields.flatMap((field) =>
        field.default === undefined ? [] : [[field.name, field.default]],
      ),
    ),
  };
}

/** What a config sends to, without its secrets: its first field shown as text. */
export function destination(config: ChannelValues): string {
  const field = channelOf(config.type)?.fields.find((candidate) =>
    ['email', 'url', 'text'].includes(candidate.input),
  );
  const value = field && config[field.name];
  return typeof value === 'string' ? value : '';
}

/** A config's pause after deliveries in a row failed (docs/attention.md), or null. */
export function pauseOf(config: ChannelValues): { at: string; reason: string } | null {
  if (typeof config.paused_at !== 'string') return null;
  return {
    at: config.paused_at,
    reason: typeof config.pause_reason === 'string' ? config.pause_reason : '',
  };
}

export function channelOf(type: string): Channel | undefined {
  return CHANNELS.find((channel) => channel.type === type);
}

export function channelLabel(type: string): string {
  return channelOf(type)?.label ?? type;
}
