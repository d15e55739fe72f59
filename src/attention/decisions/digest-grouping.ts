import type { NotificationConfig } from '../../notifications/channels/channel-registry';

/** One event of a digest config waiting for its period's digest. */
export interface DigestItem<C = NotificationConfig> {
  /** Its delivery (`held` until the digest goes). */
  recordId: string;
  /**
   * What its digest gathers, as its channel says (`NotificationChannelRegistry.digestDestination`):
   * the same address, URL or chat across the owner's tasks, or one config alone.
   */
  destination: string;
  config: C;
  occurredAt: Date;
}

/** One message: the events of one destination in one period, oldest first. */
export interface DigestGroup<C = NotificationConfig> {
  destination: string;
  /** The config the digest goes through: that of the latest event (the newest credentials). */
  config: C;
  items: Array<DigestItem<C>>;
}

/**
 * Gathers one owner's digest events per destination (docs/attention.md, "Digests"); an empty
 * period gives no group.
 */
export function groupDigest<C>(items: Array<DigestItem<C>>): Array<DigestGroup<C>> {
  const groups = new Map<string, Array<DigestItem<C>>>();
  for (const item of items) {
    groups.set(item.destination, [...(groups.get(item.destination) ?? []), item]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([destination, members]) => {
      const ordered = [...members].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
      return { destination, config: ordered[ordered.length - 1].config, items: ordered };
    });
}
