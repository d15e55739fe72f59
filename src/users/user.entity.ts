import type { Preferences } from '../attention/preferences';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type UserRole = 'user' | 'admin';
export type UserState = 'active' | 'deactivated';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Subject (`sub`) of the identity provider's JWT; null for users created otherwise. */
  @Index('uq_users_clerk_user_id', { unique: true })
  @Column({ type: 'varchar', length: 255, nullable: true })
  clerkUserId: string | null;

  @Column({ type: 'varchar', length: 320, nullable: true })
  email: string | null;

  @Index('uq_users_username', { unique: true })
  @Column({ type: 'varchar', length: 30, nullable: true })
  username: string | null;

  /** Whether the latest token vouched for `email` (`email_verified: true`, or `JWT_TRUST_EMAIL`). */
  @Column({ type: 'boolean', default: false })
  emailVerified: boolean;

  /** `admin` while the latest token carries the admin role claim (and for the local user). */
  @Column({ type: 'varchar', length: 16, default: 'user' })
  role: UserRole;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  state: UserState;

  /** Time zone, quiet hours and digest schedule; null: the defaults (docs/attention.md). */
  @Column({ type: 'jsonb', nullable: true })
  preferences: Preferences | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  updatedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  deactivatedAt: Date | null;
}
