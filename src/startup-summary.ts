import type { AppConfig } from './app.config';
import { ownText } from './common/logging/log-redaction';
import { emailConfig, type EmailConfig } from './notifications/channels/email/email.config';

/**
 * The start-up line (README, "Running it locally"): how this instance authenticates, which search provider
 * runs checks, whether email can go out, where the embedded database lives and where users
 * reach the service. Names and yes/no only: no key, password or connection string, so it is
 * logged as written (`ownText`), with a first-key command that works when pasted.
 */
export function startupSummary(
  config: AppConfig,
  embeddedDatabase: boolean,
): Record<string, unknown> {
  // Channels bring their slices under their own names (app.config.ts).
  const email = (config as unknown as Record<string, EmailConfig | undefined>)[emailConfig.name];
  return ownText({
    msg: 'Listening',
    publicUrl: config.server.publicUrl,
    host: config.server.host,
    port: config.server.port,
    auth: authMode(config),
    searchProvider:
      config.search.provider ?? 'none (page rules run; other checks fail until one is configured)',
    smtp: (email?.smtpUrl ?? null) === null ? 'not configured (email sends fail)' : 'configured',
    database: embeddedDatabase ? 'embedded' : 'DATABASE_URL',
    ...(embeddedDatabase ? { dataDir: config.database.dataDir } : {}),
  });
}

function authMode(config: AppConfig): string {
  if (config.auth.authDisabled) return 'disabled: every request acts as local@localhost (admin)';
  const jwt =
    config.auth.jwt.jwksUrl !== null
      ? 'identity-provider JWTs (JWKS) and API keys'
      : config.auth.jwt.publicKey !== null
        ? 'identity-provider JWTs (public key) and API keys'
        : 'API keys only (no JWT verification configured)';
  return `${jwt}; a first key: npm run create-key -- --email you@example.com`;
}
