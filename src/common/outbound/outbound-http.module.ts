import { Module } from '@nestjs/common';
import { OutboundHttpClient } from './outbound-http.client';
import { OutboundHttpConfigurableModule } from './outbound.module-definition';

/**
 * The one way out to HTTP (docs/architecture.md, "One way out to HTTP"): search providers, the
 * JWKS, webhooks and chat channels share `OutboundHttpClient` and its agents. Registered once,
 * globally, by the root module with `forRootAsync`.
 */
@Module({
  providers: [OutboundHttpClient],
  exports: [OutboundHttpClient],
})
export class OutboundHttpModule extends OutboundHttpConfigurableModule {}
