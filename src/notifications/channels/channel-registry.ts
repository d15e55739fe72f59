import { Inject, Injectable, type Provider } from '@nestjs/common';
import type { ConfigSlice } from '../../config/config-slice';
import { discordChannel } from './discord/discord.channel';
import { emailChannel } from './email/email.channel';
import type { ChannelDefinition, NotificationChannel } from './notification-channel';
import { ntfyChannel } from './ntfy/ntfy.channel';
import { slackChannel } from './slack/slack.channel';
import { telegramChannel } from './telegram/telegram.channel';
import { webhookChannel } from './webhook/webhook.channel';

/**
 * The one list of channels: adding one is a folder under channels/ and a line here. The types a
 * task's `notifications` may hold, the config union, its validation and the API document follow.
 */
export const CHANNELS = [
  emailChannel,
  webhookChannel,
  slackChannel,
  discordChannel,
  ntfyChannel,
  telegramChannel,
] as const;

type ConfigOfChannel<D> = D extends ChannelDefinition<infer C> ? C : never;

/** One element of a task's `notifications`, as stored (secrets included: owner only). */
export type NotificationConfig = ConfigOfChannel<(typeof CHANNELS)[number]>;

/** The channel types a task's `notifications` may hold (docs/api.md). */
export type NotificationType = NotificationConfig['type'];

export const NOTIFICATION_TYPES: readonly NotificationType[] = CHANNELS.map(
  (definition) => definition.type,
);

/** What each type's config holds besides `type` and `events`, for the API document. */
export const NOTIFICATION_FIELDS = CHANNELS.map(
  (definition) => `${definition.type}: ${definition.fields}`,
).join('; ');

/** The channels' own configuration, read at start-up with the rest. */
export const CHANNEL_CONFIGS: ReadonlyArray<ConfigSlice<unknown>> = CHANNELS.flatMap(
  (definition: ChannelDefinition) => (definition.config ? [definition.config] : []),
);

export const NOTIFICATION_CHANNELS = Symbol('NOTIFICATION_CHANNELS');

const CHANNEL_CLASSES = CHANNELS.map((definition: ChannelDefinition) => definition.channel);

/** The channel classes and the multi-provider token that gathers them. */
export const CHANNEL_PROVIDERS: Provider[] = [
  ...CHANNEL_CLASSES,
  {
    provide: NOTIFICATION_CHANNELS,
    useFactory: (...channels: NotificationChannel[]) => channels,
    inject: CHANNEL_CLASSES,
  },
];

/** Finds the channel of a config type; refuses to start when a type has none, or two. */
@Injectable()
export class NotificationChannelRegistry {
  private readonly byType = new Map<string, NotificationChannel>();

  constructor(@Inject(NOTIFICATION_CHANNELS) channels: NotificationChannel[]) {
    for (const channel of channels) {
      if (this.byType.has(channel.type)) throw new Error(`Two channels of type ${channel.type}`);
      this.byType.set(channel.type, channel);
    }
    const missing = NOTIFICATION_TYPES.filter((type) => !this.byType.has(type));
    if (missing.length > 0) throw new Error(`No channel for ${missing.join(', ')}`);
  }

  get<T extends NotificationType>(
    type: T,
  ): NotificationChannel<Extract<NotificationConfig, { type: T }>> {
    return this.byType.get(type) as NotificationChannel<Extract<NotificationConfig, { type: T }>>;
  }
}
