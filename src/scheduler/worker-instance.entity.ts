import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per running worker process; its heartbeat tells the sweeper whether it is alive. */
@Entity('worker_instances')
export class WorkerInstanceEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  hostname: string;

  @Column({ type: 'integer' })
  pid: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  startedAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  heartbeatAt: Date;
}
