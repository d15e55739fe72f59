/**
 * The console's list of channels and the fields of their forms (`console/app/channel-list.ts`),
 * written from the channels' definitions: a channel added to the registry gets its form with no
 * edit of the console (docs/extending.md).
 */
import type {
  ChannelDefinition,
  ChannelField,
} from '../src/notifications/channels/notification-channel';
import { DELIVERY_MODES } from '../src/notifications/channels/notification-types';

/** Every config's `delivery` (docs/attention.md, "Digests"), last in each form. */
const DELIVERY_FIELD: ChannelField = {
  name: 'delivery',
  label: 'Delivery',
  input: 'choice',
  choices: DELIVERY_MODES,
  default: 'instant',
  hint: 'Digest gathers the events into one message per period, at the time your preferences set.',
};

/**
 * What of a definition the console reads: its type, label, form fields (with `delivery`) and
 * generated secret.
 */
function consoleChannel({ type, label, fields, generatedSecret }: ChannelDefinition): object {
  return {
    type,
    label,
    fields: [...fields, DELIVERY_FIELD],
    ...(generatedSecret ? { generatedSecret } : {}),
  };
}

/** The source of `console/app/channel-list.ts` for `channels`, before formatting. */
export function channelListSource(channels: readonly ChannelDefinition[]): string {
  return [
    '// Written by console/generate.ts from the channel registry',
    '// (src/notifications/channels/channel-registry.ts): edit the channel definitions, not this file.',
    "import type { Channel } from './channel';",
    '',
    `export const CHANNELS: readonly Channel[] = ${JSON.stringify(channels.map(consoleChannel))};`,
    '',
  ].join('\n');
}
