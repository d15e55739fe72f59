import { Inject, Injectable, UnauthorizedException, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { ApiKeyService } from './api-key.service';
import type { AuthenticatedUser } from './authenticated-user';
import { JwtVerifierService } from './jwt-verifier.service';

export type CredentialRequirement = 'any' | 'jwt';

/** Turns an `Authorization` header into the caller, with the interface document's 401 messages. */
@Injectable()
export class AuthService implements OnApplicationBootstrap {
  private localUser: UserEntity | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly apiKeys: ApiKeyService,
    private readonly jwt: JwtVerifierService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.authDisabled) this.localUser = await this.users.ensureLocalUser();
  }

  get authDisabled(): boolean {
    return this.config.authDisabled;
  }

  async authenticate(header: string | undefined, requirement: CredentialRequirement): Promise<AuthenticatedUser> {
    if (this.config.authDisabled && this.localUser) {
      return { user: this.localUser, id: this.localUser.id, isAdmin: true, credential: 'disabled', apiKeyId: null };
    }
    const credential = parseBearer(header);
    if (credential.startsWith('sk_')) {
      if (requirement === 'jwt') throw new UnauthorizedException('This endpoint requires an identity-provider JWT');
      const found = await this.apiKeys.findActiveByKey(credential);
      if (!found) throw new UnauthorizedException('Invalid API key');
      return this.caller(found.user, 'api_key', found.apiKey.id);
    }
    if (!looksLikeJwt(credential)) {
      if (requirement === 'jwt') throw new UnauthorizedException('Invalid token');
      throw new UnauthorizedException('Invalid API key');
    }
    const claims = await this.jwt.verify(credential);
    const user = await this.users.resolveIdentity(claims);
    return { ...this.caller(user, 'jwt', null), claims };
  }

  /** `POST /auth/sync-user`: always writes the token's current claims to the user. */
  async syncUser(caller: AuthenticatedUser): Promise<UserEntity> {
    if (!caller.claims) return caller.user;
    return this.users.syncFromIdentity(caller.claims);
  }

  /** The user row reflects the latest token, so API-key callers get what that token said. */
  private caller(user: UserEntity, credential: 'api_key' | 'jwt', apiKeyId: string | null): AuthenticatedUser {
    if (user.state !== 'active') throw new UnauthorizedException('User account is deactivated');
    return { user, id: user.id, isAdmin: this.users.isAdmin(user), credential, apiKeyId };
  }
}

function parseBearer(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw new UnauthorizedException('Authorization header missing');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  if (!match) throw new UnauthorizedException('Authorization header missing');
  return match[1];
}

function looksLikeJwt(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(credential);
}
