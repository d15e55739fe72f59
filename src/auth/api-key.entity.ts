import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from '../users/user.entity';

export type ApiKeyState = 'active' | 'revoked';

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('ix_api_keys_user_id')
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_api_keys_user' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** Hex SHA-256 of the full key: the key itself is never stored. */
  @Index('uq_api_keys_key_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ type: 'varchar', length: 16 })
  keyPrefix: string;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  state: ApiKeyState;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
