import { defineConfig, type ConfigOf } from '../config/config-slice';

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
  if (read.isProduction && authDisabled) {
    read.problem('AUTH_DISABLED: not allowed when NODE_ENV=production');
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
