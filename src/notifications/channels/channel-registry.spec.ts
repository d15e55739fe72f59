import { variablesRead, wrongDefaults } from '../../../test/support/extension-docs';
import type { EnvReader } from '../../config/env-reader';
import { CHANNEL_CREDENTIALS, CHANNELS } from './channel-registry';

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
});
