import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hash of the body a page's last good text was read from (docs/pages.md, "Snapshots"): a
 * page that answers the same bytes again is the same text, known without reading it again.
 */
export class PageSnapshotBodyHash1795800100000 implements MigrationInterface {
  name = 'PageSnapshotBodyHash1795800100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "page_snapshots" ADD "body_hash" character varying(64)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "page_snapshots" DROP COLUMN "body_hash"`);
  }
}
