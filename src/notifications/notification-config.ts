import type { DiscordNotificationConfig } from './channels/discord/discord.channel';
import type { EmailNotificationConfig } from './channels/email/email.channel';
import type { NtfyNotificationConfig } from './channels/ntfy/ntfy.channel';
import type { SlackNotificationConfig } from './channels/slack/slack.channel';
import type { TelegramNotificationConfig } from './channels/telegram/telegram.channel';
import type { WebhookNotificationConfig } from './channels/webhook/webhook.channel';

/** One element of a task's `notifications`, as stored (secrets included: owner only). */
export type NotificationConfig =
  | EmailNotificationConfig
  | WebhookNotificationConfig
  | SlackNotificationConfig
  | DiscordNotificationConfig
  | NtfyNotificationConfig
  | TelegramNotificationConfig;

export type {
  DiscordNotificationConfig,
  EmailNotificationConfig,
  NtfyNotificationConfig,
  SlackNotificationConfig,
  TelegramNotificationConfig,
  WebhookNotificationConfig,
};
