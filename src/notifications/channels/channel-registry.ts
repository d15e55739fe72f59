import { Inject, Injectable, type Provider } from '@nestjs/common';
import { NOTIFICATION_TYPES, type NotificationType } from '../notification-types';
import { DiscordChannel } from './discord/discord.channel';
import { EmailChannel } from './email/email.channel';
import type { NotificationChannel } from './notification-channel';
import { NtfyChannel } from './ntfy/ntfy.channel';
import { SlackChannel } from './slack/slack.channel';
import { TelegramChannel } from './telegram/telegram.channel';
import { WebhookChannel } from './webhook/webhook.channel';

/** Every channel: adding one is a folder under channels/ and a line here. */
const CHANNELS = [
  EmailChannel,
  WebhookChannel,
  SlackChannel,
  DiscordChannel,
  NtfyChannel,
  TelegramChannel,
];

export const NOTIFICATION_CHANNELS = Symbol('NOTIFICATION_CHANNELS');

/** The channel classes and the multi-provider token that gathers them. */
export const CHANNEL_PROVIDERS: Provider[] = [
  ...CHANNELS,
  {
    provide: NOTIFICATION_CHANNELS,
    useFactory: (...channels: NotificationChannel[]) => channels,
    inject: CHANNELS,
  },
];

/** Finds the channel of a config type; refuses to start when a type has none, or two. */
@Injectable()
export class NotificationChannelRegistry {
  private readonly byType = new Map<NotificationType, NotificationChannel>();

  constructor(@Inject(NOTIFICATION_CHANNELS) channels: NotificationChannel[]) {
    for (const channel of channels) {
      if (this.byType.has(channel.type)) throw new Error(`Two channels of type ${channel.type}`);
      this.byType.set(channel.type, channel);
    }
    const missing = NOTIFICATION_TYPES.filter((type) => !this.byType.has(type));
    if (missing.length > 0) throw new Error(`No channel for ${missing.join(', ')}`);
  }

  get(type: NotificationType): NotificationChannel {
    return this.byType.get(type) as NotificationChannel;
  }
}
