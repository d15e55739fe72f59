import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** The queries on `worker_instances`: who is working, judged by heartbeats. */
@Injectable()
export class WorkerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async register(id: string, hostname: string, pid: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO worker_instances (id, hostname, pid) VALUES ($1, $2, $3)`,
      [id, hostname, pid],
    );
  }

  /** Freshens the worker's heartbeat (and registers it again if a sweep removed it). */
  async beat(id: string, hostname: string, pid: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO worker_instances (id, hostname, pid) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [id, hostname, pid],
    );
  }

  async deleteSilentForADay(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM worker_instances WHERE heartbeat_at < now() - interval '1 day'`,
    );
  }

  async remove(id: string): Promise<void> {
    await this.dataSource.query('DELETE FROM worker_instances WHERE id = $1', [id]);
  }
}
