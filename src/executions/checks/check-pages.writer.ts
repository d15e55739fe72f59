import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PageScreenshotRepository } from '../../pages/browser/screenshots/page-screenshot.repository';
import { PageItemKeyRepository } from '../../pages/items/page-item-key.repository';
import {
  PageSnapshotRepository,
  type TaskPageResults,
} from '../../pages/snapshots/page-snapshot.repository';

/**
 * What the pages of a batch of checks leave behind, in the caller's transaction: the pages read
 * become the snapshots (docs/pages.md, "Snapshots"), the item keys they showed first are
 * remembered ("Items and feeds"), and the screenshots of browser pages are kept ("Screenshots").
 */
@Injectable()
export class CheckPagesWriter {
  constructor(
    private readonly snapshots: PageSnapshotRepository,
    private readonly itemKeys: PageItemKeyRepository,
    private readonly screenshots: PageScreenshotRepository,
  ) {}

  async store(manager: EntityManager, checks: TaskPageResults[]): Promise<void> {
    await this.snapshots.store(manager, checks);
    await this.itemKeys.remember(manager, checks);
    await this.screenshots.store(manager, checks);
  }
}
