import { defineConfig, type ConfigOf } from '../config/config-slice';

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

/** What every channel shares: retries, the SSRF guard and the name servers it asks. */
export const notificationsConfig = defineConfig('notifications', (read) => ({
  webhookAllowPrivateNetworks: read.boolean('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
  webhookRetryScheduleMs: read.durationList(
    'WEBHOOK_RETRY_SCHEDULE',
    DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  ),
  /** Name servers for notification hosts (`ip[:port]`); empty: the system's. */
  dnsServers: read.dnsServers('DNS_SERVERS'),
}));
export type NotificationsConfig = ConfigOf<typeof notificationsConfig>;
