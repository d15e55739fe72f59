import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../database/sql-rows';
import { PageSnapshotEntity } from './page-snapshot.entity';
import type { PageResult, PageSnapshot, PageTarget, PageValueReadings } from '../page.types';

/** The pages a recorded check read, for its task's snapshots. */
export interface TaskPageResults {
  taskId: string;
  results: readonly PageResult[];
}

/** The URLs a check of a task reads. */
export interface TaskPageUrls {
  taskId: string;
  urls: readonly string[];
}

/**
 * `page_snapshots` (docs/pages.md, "Snapshots"): the last good fetch of each page, read for the
 * API, loaded before a batch of checks reads its pages and stored with the checks' results.
 */
@Injectable()
export class PageSnapshotRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every snapshot of a task (pk_page_snapshots), in no particular order. */
  findForTask(taskId: string): Promise<PageSnapshotEntity[]> {
    return this.dataSource.getRepository(PageSnapshotEntity).findBy({ taskId });
  }

  /**
   * The last good fetch of each page these checks read, by task and URL, in one statement: the
   * pages the checks name, whatever else the tasks once watched. Its text is loaded when a check
   * needs it: most pages are found the same without it (docs/pages.md, "Checks of page tasks").
   */
  async loadForChecks(
    checks: readonly TaskPageUrls[],
  ): Promise<Map<string, Map<string, PageSnapshot>>> {
    const byTask = new Map<string, Map<string, PageSnapshot>>();
    const pages = checks.flatMap(({ taskId, urls }) => urls.map((url) => ({ taskId, url })));
    if (pages.length === 0) return byTask;
    const rows = await queryRows<{
      task_id: string;
      url: string;
      title: string | null;
      content_hash: string;
      etag: string | null;
      last_modified: string | null;
      body_hash: string | null;
      values: PageValueReadings | null;
    }>(
      this.dataSource.manager,
      `SELECT s.task_id, s.url, s.title, s.content_hash, s.etag, s.last_modified, s.body_hash,
         s.values
       FROM unnest($1::uuid[], $2::text[]) AS p(task_id, url)
       JOIN page_snapshots s ON s.task_id = p.task_id AND s.url = p.url
       WHERE s.text IS NOT NULL`,
      [pages.map((page) => page.taskId), pages.map((page) => page.url)],
    );
    for (const row of rows) {
      const snapshots = byTask.get(row.task_id) ?? new Map<string, PageSnapshot>();
      snapshots.set(row.url, {
        text: () => this.textOf(row.task_id, row.url),
        title: row.title,
        contentHash: row.content_hash,
        ...(row.etag === null ? {} : { etag: row.etag }),
        ...(row.last_modified === null ? {} : { lastModified: row.last_modified }),
        ...(row.body_hash === null ? {} : { bodyHash: row.body_hash }),
        ...(row.values === null ? {} : { values: row.values }),
      });
      byTask.set(row.task_id, snapshots);
    }
    return byTask;
  }

  /** A page's last good text; null without one. */
  private async textOf(taskId: string, url: string): Promise<string | null> {
    const rows = await queryRows<{ text: string | null }>(
      this.dataSource.manager,
      'SELECT text FROM page_snapshots WHERE task_id = $1 AND url = $2',
      [taskId, url],
    );
    return rows[0]?.text ?? null;
  }

  /**
   * Deletes the snapshots of the pages a task no longer names (`pages`: the ones it does; none
   * when its pages are cleared), and the item keys of the pages it no longer reads as the same
   * list (without `items` now, or with other `items` than `before`, its pages until now), in the
   * caller's transaction, which holds the task's row and changes its pages (docs/pages.md,
   * "Snapshots" and "Items and feeds"): a list asked anew starts from a new baseline.
   */
  async keepOnly(
    manager: EntityManager,
    taskId: string,
    pages: readonly PageTarget[],
    before: readonly PageTarget[],
  ): Promise<void> {
    await manager.query(
      'DELETE FROM page_snapshots WHERE task_id = $1 AND url <> ALL($2::text[])',
      [taskId, pages.map((page) => page.url)],
    );
    const sameList = (page: PageTarget): boolean =>
      page.items !== undefined &&
      isDeepStrictEqual(before.find((earlier) => earlier.url === page.url)?.items, page.items);
    await manager.query(
      'DELETE FROM page_item_keys WHERE task_id = $1 AND url <> ALL($2::text[])',
      [taskId, pages.filter(sameList).map((page) => page.url)],
    );
  }

  /**
   * Stores what checks read, in the caller's transaction (which holds their tasks' locks): every
   * page's latest status; a good fetch's title, hashes and validators, and its text when it is
   * new or changed, or a list's (a `same` page's text is already there); `changed_at` on the
   * first good fetch and when the text changed. A row without a content hash is an error, which keeps the rest.
   * Only the pages their tasks still name are stored: a page removed while its check ran leaves
   * no row behind (docs/pages.md, "Snapshots").
   */
  async store(manager: EntityManager, checks: TaskPageResults[]): Promise<void> {
    const rows = checks
      .flatMap(({ taskId, results }) => results.map((result) => ({ taskId, result })))
      .sort((a, b) =>
        a.taskId === b.taskId
          ? a.result.url.localeCompare(b.result.url)
          : a.taskId.localeCompare(b.taskId),
      );
    if (rows.length === 0) return;
    const good = ({ result }: (typeof rows)[number]): boolean => result.status !== 'error';
    // A list is `same` when nothing on it is new, while items may have gone or moved: its text is
    // kept whenever it is read (docs/pages.md, "Items and feeds").
    const textRead = ({ result }: (typeof rows)[number]): boolean =>
      result.status === 'new' || result.status === 'changed' || result.newItems !== null;
    await manager.query(
      `INSERT INTO page_snapshots AS s (task_id, url, status, http_status, title, text,
         content_hash, etag, last_modified, body_hash, fetched_at, changed_at, values)
       SELECT v.task_id, v.url, v.status, v.http_status, v.title, v.text, v.content_hash, v.etag,
         v.last_modified, v.body_hash, v.fetched_at, v.fetched_at, v.values
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::integer[], $5::text[], $6::text[],
         $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::jsonb[])
         AS v(task_id, url, status, http_status, title, text, content_hash, etag, last_modified,
           body_hash, fetched_at, values)
       JOIN tasks t ON t.id = v.task_id
         AND t.pages @> jsonb_build_array(jsonb_build_object('url', v.url))
       ON CONFLICT (task_id, url) DO UPDATE SET
         status = excluded.status,
         http_status = excluded.http_status,
         title = CASE WHEN excluded.content_hash IS NULL THEN s.title ELSE excluded.title END,
         text = coalesce(excluded.text, s.text),
         content_hash = coalesce(excluded.content_hash, s.content_hash),
         etag = CASE WHEN excluded.content_hash IS NULL THEN s.etag ELSE excluded.etag END,
         last_modified = CASE WHEN excluded.content_hash IS NULL THEN s.last_modified
           ELSE excluded.last_modified END,
         body_hash = CASE WHEN excluded.content_hash IS NULL THEN s.body_hash
           ELSE excluded.body_hash END,
         values = CASE WHEN excluded.content_hash IS NULL THEN s.values ELSE excluded.values END,
         fetched_at = coalesce(excluded.fetched_at, s.fetched_at),
         changed_at = CASE
           WHEN excluded.text IS NOT NULL AND s.content_hash IS DISTINCT FROM excluded.content_hash
             THEN excluded.fetched_at
           ELSE s.changed_at END`,
      [
        rows.map((row) => row.taskId),
        rows.map((row) => row.result.url),
        rows.map((row) => row.result.status),
        rows.map((row) => row.result.httpStatus),
        rows.map((row) => (good(row) ? row.result.title : null)),
        rows.map((row) => (textRead(row) ? row.result.text : null)),
        rows.map((row) => (good(row) ? row.result.contentHash : null)),
        rows.map((row) => (good(row) ? row.result.etag : null)),
        rows.map((row) => (good(row) ? row.result.lastModified : null)),
        rows.map((row) => (good(row) ? row.result.bodyHash : null)),
        rows.map((row) => (good(row) ? row.result.fetchedAt : null)),
        rows.map((row) =>
          good(row) && row.result.values !== undefined ? JSON.stringify(row.result.values) : null,
        ),
      ],
    );
  }
}
