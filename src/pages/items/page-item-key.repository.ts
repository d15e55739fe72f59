import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../database/sql-rows';
import type { PageSnapshot } from '../page.types';
import type { TaskPageResults, TaskPageUrls } from '../snapshots/page-snapshot.repository';
import { MAX_ITEMS } from './page-items';

/** Keys kept per page: the most recent; the oldest are forgotten first. */
export const MAX_SEEN_KEYS = MAX_ITEMS;

/**
 * `page_item_keys` (docs/pages.md, "Items and feeds"): the item keys each page with items has
 * shown, by task and URL, as the snapshots are. Which pages have keys is asked before a batch of
 * checks reads its pages, and a page's keys are read only when its body changed; they are written
 * with the checks' results, and only for pages that showed new keys: a check that finds nothing
 * new writes nothing here.
 */
@Injectable()
export class PageItemKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The snapshots of these checks' pages with items, each given the loader of the hashes of the
   * keys its page has shown, after one statement that finds which pages have any: a page whose
   * body did not change needs none of them (docs/pages.md, "Items and feeds"). A page with a
   * snapshot and no keys (items newly asked of it) is left without: its next good fetch is the
   * baseline.
   */
  async withSeenKeys(
    snapshots: Map<string, Map<string, PageSnapshot>>,
    pagesWithItems: readonly TaskPageUrls[],
  ): Promise<Map<string, Map<string, PageSnapshot>>> {
    const pages = pagesWithItems.flatMap(({ taskId, urls }) =>
      urls.filter((url) => snapshots.get(taskId)?.has(url)).map((url) => ({ taskId, url })),
    );
    if (pages.length === 0) return snapshots;
    const rows = await queryRows<{ task_id: string; url: string }>(
      this.dataSource.manager,
      `SELECT p.task_id, p.url FROM unnest($1::uuid[], $2::text[]) AS p(task_id, url)
       WHERE EXISTS (SELECT 1 FROM page_item_keys k WHERE k.task_id = p.task_id AND k.url = p.url)`,
      [pages.map((page) => page.taskId), pages.map((page) => page.url)],
    );
    for (const row of rows) {
      const snapshot = snapshots.get(row.task_id)?.get(row.url);
      if (snapshot !== undefined) snapshot.seenKeys = () => this.seenKeys(row.task_id, row.url);
    }
    return snapshots;
  }

  /** The hashes of the keys one page has shown. */
  private async seenKeys(taskId: string, url: string): Promise<string[]> {
    const rows = await queryRows<{ key_hash: string }>(
      this.dataSource.manager,
      'SELECT key_hash FROM page_item_keys WHERE task_id = $1 AND url = $2',
      [taskId, url],
    );
    return rows.map((row) => row.key_hash);
  }

  /**
   * Remembers the keys that checks' pages showed first, in the caller's transaction (which holds
   * their tasks' locks), for the pages their tasks still name; then forgets the oldest keys of
   * those pages past MAX_SEEN_KEYS (most recent: seen last, and of the keys seen at once, the
   * first on the page). Pages with no new key are not touched.
   */
  async remember(manager: EntityManager, checks: readonly TaskPageResults[]): Promise<void> {
    const rows = checks.flatMap(({ taskId, results }) =>
      results.flatMap((result) =>
        result.keysToRemember.map((keyHash, position) => ({ taskId, result, keyHash, position })),
      ),
    );
    if (rows.length === 0) return;
    await manager.query(
      `INSERT INTO page_item_keys (task_id, url, key_hash, seen_at, position)
       SELECT v.task_id, v.url, v.key_hash, v.seen_at, v.position
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::integer[])
         AS v(task_id, url, key_hash, seen_at, position)
       JOIN tasks t ON t.id = v.task_id
         AND t.pages @> jsonb_build_array(jsonb_build_object('url', v.url))
       ON CONFLICT (task_id, url, key_hash) DO NOTHING`,
      [
        rows.map((row) => row.taskId),
        rows.map((row) => row.result.url),
        rows.map((row) => row.keyHash),
        rows.map((row) => row.result.fetchedAt),
        rows.map((row) => row.position),
      ],
    );
    const touched = [
      ...new Map(rows.map((row) => [`${row.taskId} ${row.result.url}`, row])).values(),
    ];
    await manager.query(
      `DELETE FROM page_item_keys k USING (
         SELECT ranked.task_id, ranked.url, ranked.key_hash FROM (
           SELECT i.task_id, i.url, i.key_hash, row_number() OVER (
             PARTITION BY i.task_id, i.url ORDER BY i.seen_at DESC, i.position ASC) AS recency
           FROM unnest($1::uuid[], $2::text[]) AS p(task_id, url)
           JOIN page_item_keys i ON i.task_id = p.task_id AND i.url = p.url
         ) ranked
         WHERE ranked.recency > $3
       ) old
       WHERE k.task_id = old.task_id AND k.url = old.url AND k.key_hash = old.key_hash`,
      [touched.map((row) => row.taskId), touched.map((row) => row.result.url), MAX_SEEN_KEYS],
    );
  }
}
