/** The notification channels a task can use, and the fields a person fills in for each. */
export interface ChannelField {
  name: string;
  label: string;
  input: 'email' | 'url' | 'text' | 'password' | 'method';
  optional?: boolean;
}

export interface Channel {
  type: string;
  label: string;
  fields: ChannelField[];
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
      { name: 'url', label: 'URL', input: 'url' },
      { name: 'method', label: 'Method', input: 'method' },
    ],
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

export function channelLabel(type: string): string {
  return CHANNELS.find((channel) => channel.type === type)?.label ?? type;
}
