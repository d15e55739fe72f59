import { Injectable } from '@nestjs/common';
import type { PageTarget } from '../page.types';
import { PageSnapshotRepository } from './page-snapshot.repository';
import { toPageSnapshotResponses, type PageSnapshotResponse } from './page-snapshot.response';

/** What a task's pages last showed, as the API answers it (docs/pages.md, "Snapshots"). */
@Injectable()
export class PageSnapshotReads {
  constructor(private readonly snapshots: PageSnapshotRepository) {}

  /** The last good fetch of each of the task's pages, in the task's page order. */
  async ofTask(task: { id: string; pages: PageTarget[] | null }): Promise<PageSnapshotResponse[]> {
    if (task.pages === null) return [];
    return toPageSnapshotResponses(task.pages, await this.snapshots.findForTask(task.id));
  }
}
