import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { UserEntity, type UserRole } from './user.entity';

export const LOCAL_USER_EMAIL = 'local@localhost';

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
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  /**
   * Admin while the latest token carried the role claim, or while the user's email is in the
   * current `ADMIN_EMAILS` and that token vouched for it (contract section 6, "Admin role").
   */
  isAdmin(user: UserEntity): boolean {
    return (
      user.role === 'admin' ||
      (user.emailVerified && user.email !== null && this.config.adminEmails.includes(user.email.toLowerCase()))
    );
  }

  /**
   * Creates or updates the user behind an identity-provider token (`POST /auth/sync-user`, and
   * every token whose claims differ from the stored ones). The role follows the token both ways.
   * A token without an email keeps the stored email and whether it was verified. One statement,
   * so two first requests racing each other end with one user.
   */
  async syncFromIdentity(claims: IdentityClaims): Promise<UserEntity> {
    const email = claims.email?.toLowerCase() ?? null;
    const rows: Array<{ id: string }> = await this.users.query(
      `INSERT INTO users (clerk_user_id, email, email_verified, role)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (clerk_user_id) DO UPDATE SET
         email = COALESCE(EXCLUDED.email, users.email),
         email_verified = CASE WHEN EXCLUDED.email IS NULL THEN users.email_verified ELSE EXCLUDED.email_verified END,
         role = EXCLUDED.role,
         updated_at = CASE
           WHEN users.email IS DISTINCT FROM COALESCE(EXCLUDED.email, users.email) OR users.role <> EXCLUDED.role
           THEN now() ELSE users.updated_at END
       RETURNING id`,
      [claims.subject, email, email !== null && claims.emailVerified, roleOf(claims)],
    );
    return this.users.findOneByOrFail({ id: rows[0].id });
  }

  /** The user behind a verified token, written only when it is new or its claims changed. */
  async resolveIdentity(claims: IdentityClaims): Promise<UserEntity> {
    const existing = await this.users.findOneBy({ clerkUserId: claims.subject });
    const email = claims.email?.toLowerCase() ?? null;
    const unchanged =
      existing !== null &&
      existing.role === roleOf(claims) &&
      (email === null || (existing.email === email && existing.emailVerified === claims.emailVerified));
    return unchanged ? existing : this.syncFromIdentity(claims);
  }

  /** The fixed caller of `AUTH_DISABLED=true` instances. */
  async ensureLocalUser(): Promise<UserEntity> {
    await this.users.query(
      `INSERT INTO users (clerk_user_id, email, role) VALUES ('local', $1, 'admin')
       ON CONFLICT (clerk_user_id) DO UPDATE SET role = 'admin', state = 'active'`,
      [LOCAL_USER_EMAIL],
    );
    return this.users.findOneByOrFail({ clerkUserId: 'local' });
  }
}

function roleOf(claims: IdentityClaims): UserRole {
  return claims.adminClaim ? 'admin' : 'user';
}
