import { BadRequestException, Injectable } from '@nestjs/common';
import { groupDigest } from '../../src/attention/decisions/digest-grouping';
import { Test } from '@nestjs/testing';
import { Writable } from 'node:stream';
import { channelListSource } from '../../console/channel-forms';
import { LogRedaction } from '../../src/common/logging/log-redaction';
import { createRootLogger } from '../../src/common/logging/root-logger';
import { defineConfig, readConfig, type ConfigOf } from '../../src/config/config-slice';
import type { EnvReader } from '../../src/config/env-reader';
import { logSecretsOf } from '../../src/log-secrets';
import {
  CHANNELS,
  channelConfigsOf,
  channelProvidersOf,
  NotificationChannelRegistry,
} from '../../src/notifications/channels/channel-registry';
import { notificationSchemasOf } from '../../src/notifications/channels/channel-schemas';
import {
  defineChannel,
  type NotificationChannel,
} from '../../src/notifications/channels/notification-channel';
import { NotificationConfigValidator } from '../../src/notifications/channels/notification-config.validator';
import type { NotificationConfigBase } from '../../src/notifications/channels/notification-types';
import { SUCCEEDED, type AttemptOutcome } from '../../src/notifications/delivery/attempt-outcome';
import { OutboundHttpClient } from '../../src/common/outbound/outbound-http.client';
import { schedulerConfig } from '../../src/scheduler/scheduler.config';
import { DEFAULT_PROVIDER_HTTP_OPTIONS } from '../../src/search/provider-api';
import { NO_TOKENS, UNKNOWN_PRICES } from '../../src/search/provider-usage';
import {
  SearchProvider,
  type CheckReply,
  type SuggestReply,
} from '../../src/search/search-provider';
import {
  defineSearchProvider,
  type ProviderSettings,
} from '../../src/search/search-provider.definition';
import {
  createSearchProvider,
  noProviderMessage,
  SEARCH_PROVIDERS,
} from '../../src/search/search-provider.registry';
import { searchConfigOf } from '../../src/search/search.config';
import {
  extensionVariables,
  readDocumentation,
  undocumentedChannels,
  undocumentedProviders,
  undocumentedVariables,
} from '../support/extension-docs';

/**
 * docs/extending.md: a provider or a channel is its folder and one registry line. Here a
 * throw-away provider (`acme`) and channel (`pager`), each described once as a folder would, are
 * added to the registries' lists and handed to the functions the application builds from them.
 */

// ---- The provider's folder: its variables, its config and its adapter.

const ACME_VARIABLES = [
  { name: 'ACME_API_KEY', required: true, description: 'Enables Acme Search (a secret)' },
  { name: 'ACME_MODEL', default: 'acme-1', description: 'Acme model' },
];

function readAcmeConfig(read: EnvReader) {
  return {
    acme: { apiKey: read.optional('ACME_API_KEY'), model: read.string('ACME_MODEL', 'acme-1') },
  };
}

class AcmeSearchProvider extends SearchProvider {
  readonly name = 'acme';
  protected readonly prices = UNKNOWN_PRICES;

  constructor(private readonly config: ProviderSettings & ReturnType<typeof readAcmeConfig>) {
    super();
  }

  get model(): string {
    return this.config.acme.model;
  }

  isConfigured(): boolean {
    return this.config.acme.apiKey !== null;
  }

  protected runCheck(): Promise<CheckReply> {
    return Promise.resolve({
      conditionMet: true,
      answer: 'Acme found it',
      reasoning: 'One source says so',
      currentState: {},
      nextCheckAt: null,
      groundingSources: [],
      values: undefined,
      tokens: NO_TOKENS,
    });
  }

  protected runSuggest(): Promise<SuggestReply> {
    return Promise.reject(new Error('Acme makes no suggestions'));
  }
}

const acmeSearchProvider = defineSearchProvider({
  name: 'acme',
  label: 'Acme',
  variables: ACME_VARIABLES,
  readConfig: readAcmeConfig,
  secrets: {
    fields: ['acmeToken'],
    shapes: [{ pattern: /\bacme_[A-Za-z0-9]{12,}/g, mask: 'acme_[Redacted]', clue: /acme_/ }],
  },
  create: (config) => new AcmeSearchProvider(config),
});

// ---- The channel's folder: its config, its variables and its channel.

interface PagerNotificationConfig extends NotificationConfigBase {
  type: 'pager';
  pager_id: string;
  pager_key: string;
}

const pagerConfig = defineConfig('pager', (read) => ({
  pagerBaseUrl: read.baseUrl('PAGER_BASE_URL') ?? 'https://pager.example',
}));

@Injectable()
class PagerChannel implements NotificationChannel<PagerNotificationConfig> {
  readonly type = 'pager';
  readonly digestsGather = 'destination';

  validate(entry: Record<string, unknown>): Promise<PagerNotificationConfig> {
    const { pager_id: id, pager_key: key } = entry;
    if (typeof id !== 'string' || typeof key !== 'string' || !key.startsWith('pgr_')) {
      return Promise.reject(
        new BadRequestException('Invalid notification: a pager needs pager_id and pager_key'),
      );
    }
    return Promise.resolve({ type: 'pager', pager_id: id, pager_key: key });
  }

  copyForOwnFork(config: PagerNotificationConfig): PagerNotificationConfig {
    return { ...config };
  }

  maskedRecipient(config: PagerNotificationConfig): string {
    return config.pager_id;
  }

  address(config: PagerNotificationConfig): string {
    return config.pager_id;
  }

  deliver(): Promise<AttemptOutcome> {
    return Promise.resolve(SUCCEEDED);
  }

  deliverDigest(): Promise<AttemptOutcome> {
    return Promise.resolve(SUCCEEDED);
  }
}

const pagerChannel = defineChannel<PagerNotificationConfig>({
  type: 'pager',
  label: 'Pager',
  channel: PagerChannel,
  fields: [
    { name: 'pager_id', label: 'Pager id', input: 'text' },
    { name: 'pager_key', label: 'Pager key', input: 'password', hint: 'Starts with pgr_.' },
  ],
  config: pagerConfig,
  variables: [
    { name: 'PAGER_BASE_URL', default: 'https://pager.example', description: 'Pager API base URL' },
  ],
  secrets: {
    fields: ['pager_key'],
    shapes: [{ pattern: /\bpgr_[A-Za-z0-9]{8,}/g, mask: 'pgr_[Redacted]', clue: /pgr_/ }],
  },
});

// ---- The registry lines.

const providers = [...SEARCH_PROVIDERS, acmeSearchProvider] as const;
const channels = [...CHANNELS, pagerChannel];

describe('Adding a provider and a channel (docs/extending.md)', () => {
  const slices = {
    scheduler: schedulerConfig,
    search: searchConfigOf(providers),
    ...Object.fromEntries(channelConfigsOf(channels).map((slice) => [slice.name, slice])),
  };
  const load = (env: Record<string, string>) =>
    readConfig(env, slices) as {
      scheduler: ConfigOf<typeof schedulerConfig>;
      search: ConfigOf<typeof slices.search>;
      pager: ConfigOf<typeof pagerConfig>;
    };

  it('should read and check the new variables when the configuration is loaded', () => {
    const config = load({ ACME_API_KEY: 'acme_0123456789ab', PAGER_BASE_URL: 'https://p.test/' });
    expect(config.search.provider).toBe('acme');
    expect(config.search.acme).toEqual({ apiKey: 'acme_0123456789ab', model: 'acme-1' });
    expect(config.pager).toEqual({ pagerBaseUrl: 'https://p.test' });
    expect(() => load({ SEARCH_PROVIDER: 'acme', PAGER_BASE_URL: 'ftp://p.test' })).toThrow(
      /SEARCH_PROVIDER=acme: set ACME_API_KEY[\s\S]*PAGER_BASE_URL: expected a http: or https: URL/,
    );
    expect(noProviderMessage(providers)).toContain(', or ACME_API_KEY for Acme;');
  });

  it('should run checks through the new provider when SEARCH_PROVIDER names it', async () => {
    const { search, scheduler } = load({
      SEARCH_PROVIDER: 'acme',
      ACME_API_KEY: 'acme_0123456789ab',
    });
    const client = new OutboundHttpClient({ allowPrivateNetworks: false, dnsServers: [] });
    const provider = createSearchProvider(
      search.provider,
      { ...search, scheduler },
      { client, options: DEFAULT_PROVIDER_HTTP_OPTIONS },
      () => undefined,
      providers,
    );
    client.onApplicationShutdown();
    expect(provider).toBeInstanceOf(AcmeSearchProvider);
    const result = await provider.check({
      searchQuery: 'anything new at Acme',
      conditionDescription: 'Acme announced something',
      previousState: null,
      previousCheckAt: null,
      now: new Date(),
      outputSchema: null,
    });
    expect(result).toMatchObject({
      answer: 'Acme found it',
      usage: { provider: 'acme', model: 'acme-1' },
    });
  });

  it("should validate a config of the new type as a task's notifications are validated", async () => {
    const moduleRef = await Test.createTestingModule({
      providers: [
        ...channelProvidersOf([pagerChannel]),
        NotificationChannelRegistry,
        NotificationConfigValidator,
      ],
    }).compile();
    const validator = moduleRef.get(NotificationConfigValidator);
    const owner = { id: 'owner', verifiedEmail: null };
    await expect(
      validator.validate([{ type: 'pager', pager_id: 'ops', pager_key: 'pgr_0123456789' }], owner),
    ).resolves.toEqual([{ type: 'pager', pager_id: 'ops', pager_key: 'pgr_0123456789' }]);
    await expect(validator.validate([{ type: 'pager', pager_id: 'ops' }], owner)).rejects.toThrow(
      'Invalid notification: a pager needs pager_id and pager_key',
    );
    await expect(validator.validate([{ type: 'fax' }], owner)).rejects.toThrow(
      'Invalid notification: type must be one of pager',
    );
  });

  it("should gather the new channel's digests per destination, as its channel says", async () => {
    const moduleRef = await Test.createTestingModule({
      providers: [...channelProvidersOf(channels), NotificationChannelRegistry],
    })
      .useMocker(() => ({}))
      .compile();
    const registry = moduleRef.get(NotificationChannelRegistry);
    const pager = (id: string, key: string): PagerNotificationConfig => ({
      type: 'pager',
      pager_id: id,
      pager_key: key,
    });
    const event = (recordId: string, taskId: string, config: PagerNotificationConfig) => ({
      recordId,
      destination: registry.digestDestination(config, taskId),
      config,
      occurredAt: new Date(`2026-11-26T07:0${recordId.slice(1)}:00Z`),
    });
    const groups = groupDigest([
      event('r3', 'task-b', pager('ops', 'pgr_newer0001')),
      event('r1', 'task-a', pager('ops', 'pgr_older0001')),
      event('r2', 'task-a', pager('night', 'pgr_night0001')),
    ]);
    expect(
      groups.map((group) => [
        group.destination,
        group.items.map((item) => item.recordId),
        group.config.pager_key,
      ]),
    ).toEqual([
      ['pager:night', ['r2'], 'pgr_night0001'],
      ['pager:ops', ['r1', 'r3'], 'pgr_newer0001'],
    ]);
    expect(registry.destination(pager('ops', 'pgr_older0001'))).toBe('pager:ops');
  });

  it('should describe the new config in the API document', () => {
    const { components, item } = notificationSchemasOf(channels);
    expect(components.PagerNotificationConfig).toEqual({
      type: 'object',
      description: 'A Pager config',
      required: ['type', 'pager_id', 'pager_key'],
      properties: {
        type: { type: 'string', enum: ['pager'] },
        events: components.EmailNotificationConfig.properties?.events,
        delivery: components.EmailNotificationConfig.properties?.delivery,
        paused_at: components.EmailNotificationConfig.properties?.paused_at,
        pause_reason: components.EmailNotificationConfig.properties?.pause_reason,
        pager_id: { type: 'string', description: 'Pager id' },
        pager_key: { type: 'string', description: 'Pager key. Starts with pgr_.' },
      },
    });
    expect(item.oneOf).toContainEqual({ $ref: '#/components/schemas/PagerNotificationConfig' });
    expect(item.discriminator?.mapping).toMatchObject({
      pager: '#/components/schemas/PagerNotificationConfig',
    });
    expect(item.description).toMatch(/; pager: pager_id, pager_key$/);
  });

  it('should keep the new secrets out of the log', () => {
    const secrets = logSecretsOf(providers, channels);
    const redaction = new LogRedaction(secrets);
    expect(redaction.scrub('paged pgr_0123456789 with acme_0123456789abcdef')).toBe(
      'paged pgr_[Redacted] with acme_[Redacted]',
    );
    const written: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString());
        done();
      },
    });
    const logger = createRootLogger({ level: 'info', destination, secrets });
    logger.info({ config: { pager_key: 'k', pager_id: 'ops' }, acmeToken: 't' }, 'paged');
    expect(JSON.parse(written.join(''))).toMatchObject({
      config: { pager_key: '[Redacted]', pager_id: 'ops' },
      acmeToken: '[Redacted]',
    });
  });

  it("should give the console the new channel's form", () => {
    const source = channelListSource(channels);
    const list = JSON.parse(/= (\[.*\]);$/m.exec(source)?.[1] ?? '[]') as Array<{ type: string }>;
    expect(list.map((channel) => channel.type)).toEqual(channels.map((channel) => channel.type));
    expect(list.at(-1)).toEqual({
      type: 'pager',
      label: 'Pager',
      fields: [
        { name: 'pager_id', label: 'Pager id', input: 'text' },
        { name: 'pager_key', label: 'Pager key', input: 'password', hint: 'Starts with pgr_.' },
        expect.objectContaining({ name: 'delivery', choices: ['instant', 'digest'] }),
      ],
    });
  });

  it('should name what the documentation must add, and nothing else', () => {
    const documentation = readDocumentation();
    expect(undocumentedVariables(extensionVariables(providers, channels), documentation)).toEqual([
      expect.stringMatching(/^\.env\.example's comment on SEARCH_PROVIDER is /),
      expect.stringMatching(/^the README's meaning of SEARCH_PROVIDER is /),
      '.env.example has no ACME_API_KEY=',
      'the README has no row for ACME_API_KEY',
      '.env.example has no ACME_MODEL=',
      'the README has no row for ACME_MODEL',
      '.env.example has no PAGER_BASE_URL=',
      'the README has no row for PAGER_BASE_URL',
    ]);
    expect(undocumentedProviders(providers, documentation)).toEqual([
      "the README's providers table has no row for acme",
    ]);
    expect(undocumentedChannels(channels, documentation)).toEqual([
      'the README has no channel row for pager',
      'docs/api.md has no channel row for pager',
    ]);
  });
});
