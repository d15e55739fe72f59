// Written by console/generate.ts from the channel registry
// (src/notifications/channels/channel-registry.ts): edit the channel definitions, not this file.
import type { Channel } from './channel';

export const CHANNELS: readonly Channel[] = [
  {
    type: 'email',
    label: 'Email',
    fields: [
      { name: 'address', label: 'Address', input: 'email' },
      {
        name: 'delivery',
        label: 'Delivery',
        input: 'choice',
        choices: ['instant', 'digest'],
        default: 'instant',
        hint: 'Digest gathers the events into one message per period, at the time your preferences set.',
      },
    ],
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
      {
        name: 'method',
        label: 'Method',
        input: 'choice',
        choices: ['POST', 'PUT', 'PATCH'],
        default: 'POST',
      },
      { name: 'headers', label: 'Headers', input: 'headers', optional: true },
      {
        name: 'delivery',
        label: 'Delivery',
        input: 'choice',
        choices: ['instant', 'digest'],
        default: 'instant',
        hint: 'Digest gathers the events into one message per period, at the time your preferences set.',
      },
    ],
    generatedSecret: { name: 'secret', label: 'Signing secret' },
  },
  {
    type: 'slack',
    label: 'Slack',
    fields: [
      { name: 'url', label: 'Incoming webhook URL', input: 'url' },
      {
        name: 'delivery',
        label: 'Delivery',
        input: 'choice',
        choices: ['instant', 'digest'],
        default: 'instant',
        hint: 'Digest gathers the events into one message per period, at the time your preferences set.',
      },
    ],
  },
  {
    type: 'discord',
    label: 'Discord',
    fields: [
      { name: 'url', label: 'Webhook URL', input: 'url' },
      {
        name: 'delivery',
        label: 'Delivery',
        input: 'choice',
        choices: ['instant', 'digest'],
        default: 'instant',
        hint: 'Digest gathers the events into one message per period, at the time your preferences set.',
      },
    ],
  },
  {
    type: 'ntfy',
    label: 'ntfy',
    fields: [
      { name: 'url', label: 'Topic URL', input: 'url' },
      { name: 'token', label: 'Access token', input: 'password', optional: true },
      {
        name: 'delivery',
        label: 'Delivery',
        input: 'choice',
        choices: ['instant', 'digest'],
        default: 'instant',
        hint: 'Digest gathers the events into one message per period, at the time your preferences set.',
      },
    ],
  },
  {
    type: 'telegram',
    label: 'Telegram',
    fields: [
      { name: 'chat_id', label: 'Chat id', input: 'text' },
      { name: 'bot_token', label: 'Bot token', input: 'password' },
      {
        name: 'delivery',
        label: 'Delivery',
        input: 'choice',
        choices: ['instant', 'digest'],
        default: 'instant',
        hint: 'Digest gathers the events into one message per period, at the time your preferences set.',
      },
    ],
  },
];
