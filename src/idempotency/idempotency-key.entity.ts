import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/**
 * An `Idempotency-Key` a user sent (docs/api.md, "Idempotency-Key"), kept 24 hours: the request it
 * stands for (a fingerprint of method, path and body) and, once answered, the answer to give
 * again, written in the transaction of the work it answers. No answer yet: the first request is
 * in progress (its work has not committed). Shared by every instance through PostgreSQL.
 */
@Entity('idempotency_keys')
@Index('ix_idempotency_keys_created_at', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_idempotency_keys_user' })
  user?: UserEntity;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  /** Which request holds the key: only it writes the answer or lets the key go. */
  @Column({ type: 'uuid' })
  claim: string;

  /** SHA-256 (hex) of the method, path and canonical JSON body. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ type: 'smallint', nullable: true })
  responseStatus: number | null;

  /** The answer's JSON exactly as sent (text, not jsonb, so it comes back byte for byte). */
  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
