import { Inject, Injectable, type Provider } from '@nestjs/common';
import type { ConfigSlice } from '../../config/config-slice';
import type { EnvVariable } from '../../config/env-variable';
import { discordChannel } from './discord/discord.channel';
import { emailChannel } from './email/email.channel';
import type { ChannelDefinition, NotificationChannel } from './notification-channel';
import type { NotificationConfigBase } from './notification-types';
import { ntfyChannel } from './ntfy/ntfy.channel';
import { slackChannel } from './slack/slack.channel';
import { telegramChannel } from './telegram/telegram.channel';
import { webhookChannel } from './webhook/webhook.channel';

/**
 * The one list of channels: adding one is a folder under channels/ and a line here
 * (docs/extending.md). The types a task's `notifications` may hold, the config union, its
 * validation, the API document, the console's form and the log's redaction follow; what follows
 * at run time is a function of the list, so a test can add a channel to it.
 */
export const CHANNELS = [
  emailChannel,
  webhookChannel,
  slackChannel,
  discordChannel,
  ntfyChannel,
  telegramChannel,
] as const;

type Channels = readonly ChannelDefinition[];

type ConfigOfChannel<D> = D extends ChannelDefinition<infer C> ? C : never;

/** One element of a task's `notifications`, as stored (secrets included: owner only). */
export type NotificationConfig = ConfigOfChannel<(typeof CHANNELS)[number]>;

/** The channel types a task's `notifications` may hold (docs/api.md). */
export type NotificationType = NotificationConfig['type'];

export const NOTIFICATION_TYPES: readonly NotificationType[] = CHANNELS.map(
  (definition) => definition.type,
);

/** The channels' own configuration slices, read at start-up with the rest. */
export function channelConfigsOf(channels: Channels): ReadonlyArray<ConfigSlice<unknown>> {
  return channels.flatMap((definition) => (definition.config ? [definition.config] : []));
}

export const CHANNEL_CONFIGS = channelConfigsOf(CHANNELS);

/** Each channel type's credential fields, its generated secret included (`credentials`). */
export function channelCredentialsOf(channels: Channels): ReadonlyMap<string, readonly string[]> {
  return new Map(
    channels.map((definition) => [
      definition.type,
      [
        ...(definition.credentials ?? []),
        ...(definition.generatedSecret ? [definition.generatedSecret.name] : []),
      ],
    ]),
  );
}

export const CHANNEL_CREDENTIALS = channelCredentialsOf(CHANNELS);

/** The channels' own variables, as `.env.example` and the README list them. */
export function channelVariablesOf(channels: Channels): EnvVariable[] {
  return channels.flatMap((definition) => definition.variables ?? []);
}

export const NOTIFICATION_CHANNELS = Symbol('NOTIFICATION_CHANNELS');

/**
 * The channel classes of `channels` and the multi-provider token that gathers them; refuses to
 * start when a definition's type has no channel.
 */
export function channelProvidersOf(channels: Channels): Provider[] {
  const classes = channels.map((definition) => definition.channel);
  return [
    ...classes,
    {
      provide: NOTIFICATION_CHANNELS,
      useFactory: (...instances: NotificationChannel[]) => {
        const missing = channels.filter(
          (definition) => !instances.some((instance) => instance.type === definition.type),
        );
        if (missing.length > 0)
          throw new Error(
            `No channel for ${missing.map((definition) => definition.type).join(', ')}`,
          );
        return instances;
      },
      inject: classes,
    },
  ];
}

export const CHANNEL_PROVIDERS = channelProvidersOf(CHANNELS);

/** Finds the channel of a config type; refuses to start when a type has two. */
@Injectable()
export class NotificationChannelRegistry {
  private readonly byType = new Map<string, NotificationChannel>();

  constructor(@Inject(NOTIFICATION_CHANNELS) channels: NotificationChannel[]) {
    for (const channel of channels) {
      if (this.byType.has(channel.type)) throw new Error(`Two channels of type ${channel.type}`);
      this.byType.set(channel.type, channel);
    }
  }

  /** The registered types, in the registry's order. */
  get types(): string[] {
    return [...this.byType.keys()];
  }

  has(type: unknown): type is NotificationType {
    return typeof type === 'string' && this.byType.has(type);
  }

  /**
   * Where a config's messages arrive (docs/attention.md, "Held deliveries keep their order"):
   * configs of one type with the same address, URL or chat, across the owner's tasks, are one
   * destination.
   */
  destination(config: NotificationConfigBase): string {
    return `${config.type}:${this.channelOf(config).address(config)}`;
  }

  /**
   * What one digest of an event of `taskId` through `config` gathers (docs/attention.md,
   * "Digests"): as its channel says, its destination, or its config alone (a task holds one
   * config of each type).
   */
  digestDestination(config: NotificationConfigBase, taskId: string): string {
    return this.channelOf(config).digestsGather === 'config'
      ? `${config.type}:${taskId}`
      : this.destination(config);
  }

  private channelOf(config: NotificationConfigBase): NotificationChannel {
    const channel = this.byType.get(config.type);
    if (!channel) throw new Error(`No channel of type ${config.type}`);
    return channel;
  }

  get<T extends NotificationType>(
    type: T,
  ): NotificationChannel<Extract<NotificationConfig, { type: T }>> {
    return this.byType.get(type) as NotificationChannel<Extract<NotificationConfig, { type: T }>>;
  }
}
