import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pace of a task whose verdict needs no model (docs/pages.md, "When a page task is checked"):
 * its interval between checks (null until its first such check) and its quiet checks in a row.
 */
export class PageCheckPace1795820000000 implements MigrationInterface {
  name = 'PageCheckPace1795820000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tasks" ADD "page_check_interval_ms" bigint`);
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD "page_quiet_checks" integer NOT NULL DEFAULT 0`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "page_quiet_checks"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "page_check_interval_ms"`);
  }
}
