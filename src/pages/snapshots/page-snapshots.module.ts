import { Module } from '@nestjs/common';
import { PageSnapshotReads } from './page-snapshot.reads';
import { PageSnapshotRepository } from './page-snapshot.repository';
import { PageItemKeyRepository } from '../items/page-item-key.repository';

/**
 * What each page of a task last showed (docs/pages.md, "Snapshots"), and the item keys of its
 * lists ("Items and feeds"): the repositories the check
 * pipeline writes and the reads the API answers. A module of its own: the page stage itself
 * (`PagesModule`) needs no database.
 */
@Module({
  providers: [PageSnapshotRepository, PageSnapshotReads, PageItemKeyRepository],
  exports: [PageSnapshotRepository, PageSnapshotReads, PageItemKeyRepository],
})
export class PageSnapshotsModule {}
