import { Injectable, UnauthorizedException, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectConfig } from '../config/config-slice';
import type { UserEntity } from '../users/user.entity';
import { USER_DEACTIVATED, UsersService, type IdentityClaims } from '../users/users.service';
import { ApiKeyService } from './api-key.service';
import type { AuthenticatedUser } from './authenticated-user';
import { authConfig, type AuthConfig } from './auth.config';

/**
 * Turns verified credentials into the caller, with the 401 messages of docs/api.md,
 * "Authentication".
 */
@Injectable()
export class AuthService implements OnApplicationBootstrap {
  private localUser: UserEntity | null = null;

  constructor(
    @InjectConfig(authConfig) private readonly config: AuthConfig,
    private readonly users: UsersService,
    private readonly apiKeys: ApiKeyService,
  ) {}

  /**
   * The local user acts only while authentication is off (docs/api.md, "Authentication"): with
   * it on, that user is made inactive, and no credential leads to it (below).
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.authDisabled) this.localUser = await this.users.ensureLocalUser();
    else await this.users.retireLocalUser();
  }

  /** With `AUTH_DISABLED=true`, every request acts as the local administrator. */
  localCaller(): AuthenticatedUser | null {
    if (!this.config.authDisabled || !this.localUser) return null;
    return {
      user: this.localUser,
      id: this.localUser.id,
      isAdmin: true,
      credential: 'disabled',
      apiKeyId: null,
    };
  }

  async authenticateApiKey(key: string): Promise<AuthenticatedUser> {
    const found = await this.apiKeys.findActiveByKey(key);
    // A key made while authentication was off is not a key of anyone now.
    if (!found || this.users.isLocalIdentity(found.user))
      throw new UnauthorizedException('Invalid API key');
    return this.caller(found.user, 'api_key', found.keyId);
  }

  async authenticateIdentity(claims: IdentityClaims): Promise<AuthenticatedUser> {
    // The local user's subject is reserved: a token claiming it would take over that user.
    if (this.users.isLocalIdentity(claims)) throw new UnauthorizedException('Invalid token');
    const user = await this.users.resolveIdentity(claims);
    return { ...this.caller(user, 'jwt', null), claims };
  }

  /** `POST /auth/sync-user`: always writes the token's current claims to the user. */
  async syncUser(caller: AuthenticatedUser): Promise<UserEntity> {
    if (!caller.claims) return caller.user;
    return this.users.syncFromIdentity(caller.claims);
  }

  /** The user row reflects the latest token, so API-key callers get what that token said. */
  private caller(
    user: UserEntity,
    credential: 'api_key' | 'jwt',
    apiKeyId: string | null,
  ): AuthenticatedUser {
    if (user.state !== 'active') throw new UnauthorizedException(USER_DEACTIVATED);
    return { user, id: user.id, isAdmin: this.users.isAdmin(user), credential, apiKeyId };
  }
}
