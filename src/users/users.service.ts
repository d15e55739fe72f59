import { Injectable, UnauthorizedException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InjectConfig } from '../config/config-slice';
import type { UserEntity, UserRole } from './user.entity';
import { LOCAL_SUBJECT, UserRepository, type UserLockMode } from './user.repository';
import { usersConfig, type UsersConfig } from './users.config';

export const LOCAL_USER_EMAIL = 'local@localhost';
export const USER_DEACTIVATED = 'User account is deactivated';

export interface IdentityClaims {
  subject: string;
  email: string | null;
  /** The token vouches for `email` (its `email_verified` claim, or `JWT_TRUST_EMAIL`). */
  emailVerified: boolean;
  adminClaim: boolean;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UserRepository,
    @InjectConfig(usersConfig) private readonly config: UsersConfig,
  ) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findById(id);
  }

  /**
   * The first lock of a request's write (docs/architecture.md, "One lock order"), and its
   * re-check that the caller is still active: a request that passed the guard before a
   * deactivation committed changes nothing and answers 401.
   */
  async lockActiveUser(
    manager: EntityManager,
    userId: string,
    mode: UserLockMode = 'share',
  ): Promise<void> {
    if (!(await this.users.lockIfActive(manager, userId, mode)))
      throw new UnauthorizedException(USER_DEACTIVATED);
  }

  /**
   * Admin while the latest token carried the role claim, or while the user's email is in the
   * current `ADMIN_EMAILS` and that token vouched for it (docs/api.md, "Authentication").
   */
  isAdmin(user: UserEntity): boolean {
    return (
      user.role === 'admin' ||
      (user.emailVerified &&
        user.email !== null &&
        this.config.adminEmails.includes(user.email.toLowerCase()))
    );
  }

  /**
   * Creates or updates the user behind an identity-provider token (`POST /auth/sync-user`, and
   * every token whose claims differ from the stored ones). The role follows the token both ways.
   * A token without an email keeps the stored email and whether it was verified. One statement,
   * so two first requests racing each other end with one user.
   */
  async syncFromIdentity(claims: IdentityClaims): Promise<UserEntity> {
    return this.users.upsertIdentity({
      subject: claims.subject,
      email: claims.email?.toLowerCase() ?? null,
      emailVerified: claims.emailVerified,
      role: roleOf(claims),
    });
  }

  /** The user behind a verified token, written only when it is new or its claims changed. */
  async resolveIdentity(claims: IdentityClaims): Promise<UserEntity> {
    const existing = await this.users.findBySubject(claims.subject);
    const email = claims.email?.toLowerCase() ?? null;
    const unchanged =
      existing !== null &&
      existing.role === roleOf(claims) &&
      (email === null ||
        (existing.email === email && existing.emailVerified === claims.emailVerified));
    return unchanged ? existing : this.syncFromIdentity(claims);
  }

  /** The fixed caller of `AUTH_DISABLED=true` instances. */
  ensureLocalUser(): Promise<UserEntity> {
    return this.users.upsertLocalAdmin(LOCAL_USER_EMAIL);
  }

  /**
   * The user an operator names by email (`npm run create-key`): the one user with that email, or
   * a new one without an identity-provider subject, its email taken as verified (the operator
   * vouches for it). `admin` gives the role; a user who signs in with a JWT later gets the role
   * their token says, as always.
   */
  async provisionByEmail(email: string, admin: boolean): Promise<UserEntity> {
    const address = email.trim().toLowerCase();
    const found = await this.users.findByEmail(address);
    if (found.length > 1) {
      throw new Error(`${found.length} users have the email ${address}: cannot tell which one`);
    }
    if (found.length === 0)
      return this.users.insertWithoutIdentity(address, admin ? 'admin' : 'user');
    const user = found[0];
    if (user.state !== 'active') {
      throw new Error(
        `The user ${address} is deactivated. An administrator can reactivate them with ` +
          `PATCH /admin/users/${user.id}/reactivate, then run this again.`,
      );
    }
    if (admin && user.role !== 'admin') {
      await this.users.setRole(user.id, 'admin');
      user.role = 'admin';
    }
    return user;
  }

  /** With authentication on, the local user is inactive; its data is kept. */
  retireLocalUser(): Promise<void> {
    return this.users.retireLocalUser();
  }

  /** Whether a credential leads to the local user of `AUTH_DISABLED`, by user or by JWT `sub`. */
  isLocalIdentity(identity: Pick<UserEntity, 'clerkUserId'> | { subject: string }): boolean {
    const subject = 'subject' in identity ? identity.subject : identity.clerkUserId;
    return subject === LOCAL_SUBJECT;
  }
}

function roleOf(claims: IdentityClaims): UserRole {
  return claims.adminClaim ? 'admin' : 'user';
}
