import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { TaskPageResults } from '../../snapshots/page-snapshot.repository';
import { PageScreenshotEntity } from './page-screenshot.entity';

/**
 * `page_screenshots` (docs/pages.md, "Screenshots"): the PNG of each browser page's last good
 * read, stored with the checks' results and read by the page's owner.
 */
@Injectable()
export class PageScreenshotRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The last screenshot of a task's page, or null when it has none. */
  async findPng(taskId: string, url: string): Promise<Buffer | null> {
    const row = await this.dataSource
      .getRepository(PageScreenshotEntity)
      .findOne({ where: { taskId, url }, select: { png: true } });
    return row?.png ?? null;
  }

  /**
   * Keeps the screenshot of every good browser read of these checks in place of the page's last,
   * in the caller's transaction, after their snapshots: a page whose snapshot is not there (its
   * task no longer names it) keeps none.
   */
  async store(manager: EntityManager, checks: readonly TaskPageResults[]): Promise<void> {
    const rows = checks
      .flatMap(({ taskId, results }) => results.map((result) => ({ taskId, result })))
      .filter(({ result }) => result.status !== 'error' && result.screenshot !== undefined)
      .sort((a, b) =>
        a.taskId === b.taskId
          ? a.result.url.localeCompare(b.result.url)
          : a.taskId.localeCompare(b.taskId),
      );
    if (rows.length === 0) return;
    await manager.query(
      `INSERT INTO page_screenshots (task_id, url, png, taken_at)
       SELECT v.task_id, v.url, v.png, v.taken_at
       FROM unnest($1::uuid[], $2::text[], $3::bytea[], $4::timestamptz[])
         AS v(task_id, url, png, taken_at)
       JOIN page_snapshots s ON s.task_id = v.task_id AND s.url = v.url
       ON CONFLICT (task_id, url) DO UPDATE SET png = excluded.png, taken_at = excluded.taken_at`,
      [
        rows.map((row) => row.taskId),
        rows.map((row) => row.result.url),
        rows.map((row) => row.result.screenshot),
        rows.map((row) => row.result.fetchedAt),
      ],
    );
  }
}
