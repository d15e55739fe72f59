import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What pages stored before their bounds (docs/pages.md, "Snapshots"): the snapshots (with their
 * screenshots) and item keys of URLs their tasks no longer name, which nothing reads, are
 * deleted; snapshot titles past 300 characters are cut. Nothing deleted or cut comes back down.
 */
export class StoredPagesBounds1795832000000 implements MigrationInterface {
  name = 'StoredPagesBounds1795832000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['page_snapshots', 'page_item_keys']) {
      await queryRunner.query(
        `DELETE FROM "${table}" p USING "tasks" t WHERE p."task_id" = t."id"
           AND NOT coalesce(t."pages", '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('url', p."url"))`,
      );
    }
    await queryRunner.query(
      `UPDATE "page_snapshots" SET "title" = left("title", 300) WHERE length("title") > 300`,
    );
  }

  public async down(): Promise<void> {
    // Rows deleted and titles cut are not restored.
  }
}
