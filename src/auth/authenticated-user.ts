import type { UserEntity } from '../users/user.entity';
import type { IdentityClaims } from '../users/users.service';

export type CredentialKind = 'api_key' | 'jwt' | 'disabled';

/** The caller of a request, as the guards and services see it. */
export interface AuthenticatedUser {
  user: UserEntity;
  id: string;
  isAdmin: boolean;
  credential: CredentialKind;
  /** Set when the caller used an API key: rate limits count per key. */
  apiKeyId: string | null;
  /** The verified token's claims, for JWT callers. */
  claims?: IdentityClaims;
}
