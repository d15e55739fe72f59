/**
 * The console's list of channels and the fields of their forms (`console/app/channel-list.ts`),
 * written from the channels' definitions: a channel added to the registry gets its form with no
 * edit of the console (docs/extending.md).
 */
import type { ChannelDefinition } from '../src/notifications/channels/notification-channel';

/** What of a definition the console reads: its type, label, form fields and generated secret. */
function consoleChannel({ type, label, fields, generatedSecret }: ChannelDefinition): object {
  return { type, label, fields, ...(generatedSecret ? { generatedSecret } : {}) };
}

/** The source of `console/app/channel-list.ts` for `channels`, before formatting. */
export function channelListSource(channels: readonly ChannelDefinition[]): string {
  return [
    '// Written by console/generate.ts from the channel registry',
    '// (src/notifications/channels/channel-registry.ts): edit the channel definitions, not this file.',
    "import type { Channel } from './channels';",
    '',
    `export const CHANNELS: readonly Channel[] = ${JSON.stringify(channels.map(consoleChannel))};`,
    '',
  ].join('\n');
}
