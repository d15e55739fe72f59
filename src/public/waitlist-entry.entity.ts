import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity('waitlist_entries')
export class WaitlistEntryEntity {
  @PrimaryGeneratedColumn('increment')
  position: number;

  @Index('uq_waitlist_entries_email', { unique: true })
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
