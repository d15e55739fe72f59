import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { UserEntity } from './user.entity';

export const LOCAL_USER_EMAIL = 'local@localhost';

export interface IdentityClaims {
  subject: string;
  email: string | null;
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

  /** `ADMIN_EMAILS` (and a stored admin role) make a user an administrator. */
  isAdmin(user: UserEntity): boolean {
    return user.role === 'admin' || (user.email !== null && this.config.adminEmails.includes(user.email.toLowerCase()));
  }

  /**
   * Creates or updates the user behind an identity-provider token (`POST /auth/sync-user`, and
   * the first request of a new JWT caller). One statement, so two first requests racing each
   * other end with one user.
   */
  async syncFromIdentity(claims: IdentityClaims): Promise<UserEntity> {
    const email = claims.email?.toLowerCase() ?? null;
    const admin = claims.adminClaim || (email !== null && this.config.adminEmails.includes(email));
    const rows: Array<{ id: string }> = await this.users.query(
      `INSERT INTO users (clerk_user_id, email, role)
       VALUES ($1, $2, $3)
       ON CONFLICT (clerk_user_id) DO UPDATE SET
         email = COALESCE(EXCLUDED.email, users.email),
         role = CASE WHEN $4 THEN 'admin' ELSE users.role END,
         updated_at = CASE
           WHEN users.email IS DISTINCT FROM COALESCE(EXCLUDED.email, users.email) OR ($4 AND users.role <> 'admin')
           THEN now() ELSE users.updated_at END
       RETURNING id`,
      [claims.subject, email, admin ? 'admin' : 'user', admin],
    );
    return this.users.findOneByOrFail({ id: rows[0].id });
  }

  /** The user behind a verified token, written only when it is new or its claims changed. */
  async resolveIdentity(claims: IdentityClaims): Promise<UserEntity> {
    const existing = await this.users.findOneBy({ clerkUserId: claims.subject });
    const email = claims.email?.toLowerCase() ?? null;
    if (existing && (email === null || existing.email === email) && (!claims.adminClaim || existing.role === 'admin')) {
      return existing;
    }
    return this.syncFromIdentity(claims);
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
