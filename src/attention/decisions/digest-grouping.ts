import type { NotificationConfig } from '../../notifications/channels/channel-registry';
import { deliveryDestination } from './destination';

/** One event of a digest config waiting for its period's digest. */
export interface DigestItem {
  /** Its send record (`held` until the digest goes). */
  recordId: string;
  taskId: string;
  config: NotificationConfig;
  occurredAt: Date;
  /** The webhook `data` of the event, as it would have been sent alone. */
  data: unknown;
}

/** One message: the events of one destination in one period, oldest first. */
export interface DigestGroup {
  destination: string;
  /** The config the digest goes through: that of the latest event (the newest credentials). */
  config: NotificationConfig;
  items: DigestItem[];
}

/**
 * Where a digest goes (docs/attention.md, "Digests"): the same channel type and the same
 * address, URL or chat across the owner's tasks (`deliveryDestination`); a webhook signs with its
 * own config's secret, so its digest stays within that config (one task).
 */
export function digestDestination(config: NotificationConfig, taskId: string): string {
  return config.type === 'webhook' ? `webhook:${taskId}` : deliveryDestination(config);
}

/** Gathers one owner's digest events per destination; an empty period gives no group. */
export function groupDigest(items: DigestItem[]): DigestGroup[] {
  const groups = new Map<string, DigestItem[]>();
  for (const item of items) {
    const destination = digestDestination(item.config, item.taskId);
    groups.set(destination, [...(groups.get(destination) ?? []), item]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([destination, members]) => {
      const ordered = [...members].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
      return { destination, config: ordered[ordered.length - 1].config, items: ordered };
    });
}
