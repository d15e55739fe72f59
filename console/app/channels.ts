/**
 * The notification channels a task can use, and the fields a person fills in for each: the list
 * is channel-list.ts, written from the channels' definitions (console/generate.ts).
 */
import { CHANNELS } from './channel-list';

export { CHANNELS };

export interface ChannelField {
  name: string;
  label: string;
  /** `choice`: one of `choices`; `headers`: HTTP header names and values (an object). */
  input: 'email' | 'url' | 'text' | 'password' | 'choice' | 'headers';
  choices?: readonly string[];
  optional?: boolean;
  /** What the form starts with. */
  default?: string;
  hint?: string;
}

/** A secret the service generates for a config and shows its owner. */
export interface GeneratedSecret {
  name: string;
  label: string;
}

export interface Channel {
  type: string;
  label: string;
  fields: readonly ChannelField[];
  generatedSecret?: GeneratedSecret;
}

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
