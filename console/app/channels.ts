/** The notification channels a task can use, and the fields a person fills in for each. */
export interface ChannelField {
  name: string;
  label: string;
  /** `headers`: HTTP header names and values (a JSON object in the config). */
  input: 'email' | 'url' | 'text' | 'password' | 'method' | 'headers';
  optional?: boolean;
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
  fields: ChannelField[];
  generatedSecret?: GeneratedSecret;
}

export const CHANNELS: Channel[] = [
  {
    type: 'email',
    label: 'Email',
    fields: [{ name: 'address', label: 'Address', input: 'email' }],
  },
  {
    type: 'webhook',
    label: 'Webhook',
    fields: [
      {
        name: 'url',
        label: 'URL',
        input: 'url',
        hint: 'Deliveries are signed with a secret the service makes; a new URL gets a new one.',
      },
      { name: 'method', label: 'Method', input: 'method' },
      { name: 'headers', label: 'Headers', input: 'headers', optional: true },
    ],
    generatedSecret: { name: 'secret', label: 'Signing secret' },
  },
  {
    type: 'slack',
    label: 'Slack',
    fields: [{ name: 'url', label: 'Incoming webhook URL', input: 'url' }],
  },
  {
    type: 'discord',
    label: 'Discord',
    fields: [{ name: 'url', label: 'Webhook URL', input: 'url' }],
  },
  {
    type: 'ntfy',
    label: 'ntfy',
    fields: [
      { name: 'url', label: 'Topic URL', input: 'url' },
      { name: 'token', label: 'Access token', input: 'password', optional: true },
    ],
  },
  {
    type: 'telegram',
    label: 'Telegram',
    fields: [
      { name: 'chat_id', label: 'Chat id', input: 'text' },
      { name: 'bot_token', label: 'Bot token', input: 'password' },
    ],
  },
];

export function channelOf(type: string): Channel | undefined {
  return CHANNELS.find((channel) => channel.type === type);
}

export function channelLabel(type: string): string {
  return channelOf(type)?.label ?? type;
}
