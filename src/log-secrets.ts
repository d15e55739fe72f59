import type { LogSecrets } from './common/logging/log-redaction';
import { CHANNELS } from './notifications/channels/channel-registry';
import type { ChannelDefinition } from './notifications/channels/notification-channel';
import type { SearchProviderDefinition } from './search/search-provider.definition';
import { SEARCH_PROVIDERS } from './search/search-provider.registry';

/** The secret field names and text shapes that `providers` and `channels` declare. */
export function logSecretsOf(
  providers: readonly SearchProviderDefinition[],
  channels: readonly ChannelDefinition[],
): LogSecrets[] {
  return [...providers, ...channels].flatMap((definition) =>
    definition.secrets ? [definition.secrets] : [],
  );
}

/**
 * What the registered providers and channels add to the log's redaction (docs/logging.md): every
 * root logger is made with it (`createRootLogger`), as `common/` imports no feature.
 */
export const LOG_SECRETS = logSecretsOf(SEARCH_PROVIDERS, CHANNELS);
