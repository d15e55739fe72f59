import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PageSnapshotEntity } from './page-snapshot.entity';

/** Reads of `page_snapshots` for the API. */
@Injectable()
export class PageSnapshotRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every snapshot of a task (pk_page_snapshots), in no particular order. */
  findForTask(taskId: string): Promise<PageSnapshotEntity[]> {
    return this.dataSource.getRepository(PageSnapshotEntity).findBy({ taskId });
  }
}
