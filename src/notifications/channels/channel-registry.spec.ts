import { variablesRead, wrongDefaults } from '../../../test/support/extension-docs';
import type { EnvReader } from '../../config/env-reader';
import { Test } from '@nestjs/testing';
import {
  CHANNEL_CREDENTIALS,
  CHANNEL_PROVIDERS,
  CHANNELS,
  NotificationChannelRegistry,
  type NotificationConfig,
} from './channel-registry';

describe('channel registry', () => {
  it.each(CHANNELS.map((channel) => [channel.type, channel] as const))(
    'should declare every variable the %s channel reads, with the value that unset stands for',
    (_type, channel) => {
      const variables = channel.variables ?? [];
      const read = (reader: EnvReader) => channel.config?.read(reader);
      expect(variablesRead(read)).toEqual(variables.map((variable) => variable.name).sort());
      expect(wrongDefaults(variables, read)).toEqual([]);
    },
  );

  it.each(CHANNELS.map((channel) => [channel.type, channel] as const))(
    'should count every hidden field and the generated secret of the %s channel as credentials',
    (type, channel) => {
      const hidden = channel.fields
        .filter((field) => field.input === 'password' || field.input === 'headers')
        .map((field) => field.name);
      const generated = channel.generatedSecret ? [channel.generatedSecret.name] : [];
      expect([...(CHANNEL_CREDENTIALS.get(type) ?? [])].sort()).toEqual(
        [...hidden, ...generated].sort(),
      );
    },
  );

  describe('destinations', () => {
    let registry: NotificationChannelRegistry;
    const webhook = (secret: string): NotificationConfig => ({
      type: 'webhook',
      url: 'https://hooks.example.com/in',
      method: 'POST',
      headers: {},
      secret,
    });

    beforeAll(async () => {
      // The channels' own dependencies (SMTP, HTTP) play no part in where a config's messages go.
      const moduleRef = await Test.createTestingModule({
        providers: [...CHANNEL_PROVIDERS, NotificationChannelRegistry],
      })
        .useMocker(() => ({}))
        .compile();
      registry = moduleRef.get(NotificationChannelRegistry);
    });

    const email = (address: string): NotificationConfig => ({ type: 'email', address });
    const telegram = (bot_token: string): NotificationConfig => ({
      type: 'telegram',
      chat_id: '-100',
      bot_token,
    });
    const slack: NotificationConfig = { type: 'slack', url: 'https://hooks.slack.com/services/A' };

    it('should name one destination for one address, URL or chat, whichever task it serves', () => {
      expect(registry.destination(email('Ann@Example.com'))).toBe(
        registry.destination(email('ann@example.com')),
      );
      expect(registry.destination(webhook('whsec_a'))).toBe('webhook:https://hooks.example.com/in');
      expect(registry.destination(telegram('1:a'))).toBe('telegram:-100');
      expect(registry.destination(slack)).toBe('slack:https://hooks.slack.com/services/A');
    });

    it('should gather a digest per destination across tasks, and a webhook digest per config', () => {
      expect(registry.digestDestination(email('Ann@Example.com'), 't1')).toBe(
        registry.digestDestination(email('ann@example.com'), 't2'),
      );
      expect(registry.digestDestination(telegram('1:a'), 't1')).toBe(
        registry.digestDestination(telegram('2:b'), 't2'),
      );
      expect(registry.digestDestination(webhook('whsec_a'), 't1')).toBe('webhook:t1');
      expect(registry.digestDestination(webhook('whsec_b'), 't2')).toBe('webhook:t2');
    });
  });
});
