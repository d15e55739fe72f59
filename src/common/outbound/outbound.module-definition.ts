import { ConfigurableModuleBuilder } from '@nestjs/common';

/** What the outbound HTTP module needs from the configuration. */
export interface OutboundHttpOptions {
  /** `WEBHOOK_ALLOW_PRIVATE_NETWORKS`: the SSRF guard is off for user-given URLs. */
  allowPrivateNetworks: boolean;
  /** `DNS_SERVERS`: name servers for notification hosts; empty: the system's. */
  dnsServers: readonly string[];
}

export const {
  ConfigurableModuleClass: OutboundHttpConfigurableModule,
  MODULE_OPTIONS_TOKEN: OUTBOUND_HTTP_OPTIONS,
} = new ConfigurableModuleBuilder<OutboundHttpOptions>()
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: true }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();
