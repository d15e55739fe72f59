import { Module } from '@nestjs/common';
import { PageSnapshotReads } from './page-snapshot.reads';
import { PageSnapshotRepository } from './page-snapshot.repository';

/**
 * What each page of a task last showed (docs/pages.md, "Snapshots"): the repository the check
 * pipeline writes and the reads the API answers. A module of its own: the page stage itself
 * (`PagesModule`) needs no database.
 */
@Module({
  providers: [PageSnapshotRepository, PageSnapshotReads],
  exports: [PageSnapshotRepository, PageSnapshotReads],
})
export class PageSnapshotsModule {}
