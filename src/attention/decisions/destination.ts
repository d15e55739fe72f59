import type { NotificationConfig } from '../../notifications/channels/channel-registry';

/**
 * Where a config's messages arrive (docs/attention.md, "Held deliveries keep their order"): the
 * same channel type and the same address (email, compared without case), URL (webhook, Slack,
 * Discord, ntfy) or chat (Telegram), whichever of the owner's tasks the config belongs to.
 */
export function deliveryDestination(config: NotificationConfig): string {
  switch (config.type) {
    case 'email':
      return `email:${config.address.toLowerCase()}`;
    case 'webhook':
    case 'slack':
    case 'discord':
    case 'ntfy':
      return `${config.type}:${config.url}`;
    case 'telegram':
      return `telegram:${config.chat_id}`;
  }
}
