import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The last screenshot of each browser page (docs/pages.md, "Screenshots"), deleted with the
 * page's snapshot.
 */
export class PageScreenshots1795831500000 implements MigrationInterface {
  name = 'PageScreenshots1795831500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "page_screenshots" ("task_id" uuid NOT NULL, "url" text NOT NULL, "png" bytea NOT NULL, "taken_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_page_screenshots" PRIMARY KEY ("task_id", "url"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "page_screenshots" ADD CONSTRAINT "fk_page_screenshots_snapshot" FOREIGN KEY ("task_id", "url") REFERENCES "page_snapshots"("task_id","url") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "page_screenshots" DROP CONSTRAINT "fk_page_screenshots_snapshot"`,
    );
    await queryRunner.query(`DROP TABLE "page_screenshots"`);
  }
}
