import { defineConfig, type ConfigOf } from '../config/config-slice';

/** The only `NODE_ENV` values (compared case-insensitively) under which `AUTH_DISABLED` may start. */
const AUTH_DISABLED_ENVIRONMENTS = ['development', 'test'];

/** How callers prove who they are (README, "Authentication"). */
export const authConfig = defineConfig('auth', (read) => {
  const authDisabled = read.boolean('AUTH_DISABLED', false);
  const jwt = {
    jwksUrl: read.url('JWT_JWKS_URL', ['http:', 'https:']),
    publicKey: read.optional('JWT_PUBLIC_KEY')?.replace(/\\n/g, '\n') ?? null,
    issuer: read.optional('JWT_ISSUER'),
    audience: read.optional('JWT_AUDIENCE'),
    emailClaim: read.string('JWT_EMAIL_CLAIM', 'email'),
    /** `azp` values accepted; empty: not checked. */
    authorizedParties: read.list('JWT_AUTHORIZED_PARTIES'),
    /** Trust the email claim as verified even without `email_verified: true`. */
    trustEmail: read.boolean('JWT_TRUST_EMAIL', false),
  };
  // An allow-list, so `staging` or a mistyped `Prodution` cannot open the service.
  if (authDisabled && !AUTH_DISABLED_ENVIRONMENTS.includes(read.nodeEnv)) {
    read.problem(
      `AUTH_DISABLED: allowed only when NODE_ENV is development or test, not "${read.string('NODE_ENV', '')}"`,
    );
  }
  if (
    read.isProduction &&
    (jwt.jwksUrl !== null || jwt.publicKey !== null) &&
    jwt.issuer === null
  ) {
    read.problem(
      'JWT_ISSUER: required when NODE_ENV=production and JWT verification is configured',
    );
  }
  return { authDisabled, jwt };
});
export type AuthConfig = ConfigOf<typeof authConfig>;
