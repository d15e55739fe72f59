import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The values a page's last good fetch read (docs/pages.md, "Values read from pages"): a page
 * that answers `304 Not Modified` keeps them, and the next fetch's values are compared with them.
 */
export class PageSnapshotValues1795831000000 implements MigrationInterface {
  name = 'PageSnapshotValues1795831000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "page_snapshots" ADD "values" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "page_snapshots" DROP COLUMN "values"`);
  }
}
