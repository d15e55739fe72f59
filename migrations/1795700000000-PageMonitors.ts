import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Page monitors (docs/pages.md): the pages a task watches and its page rule, what each check read
 * of them and whose verdict it carries, and the last good text of each page.
 */
export class PageMonitors1795700000000 implements MigrationInterface {
  name = 'PageMonitors1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tasks" ADD "pages" jsonb`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD "page_rule" jsonb`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "page_results" jsonb`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "verdict_execution_id" uuid`);
    await queryRunner.query(
      `CREATE TABLE "page_snapshots" ("task_id" uuid NOT NULL, "url" text NOT NULL, "status" character varying(16), "http_status" integer, "title" text, "text" text, "content_hash" character varying(64), "etag" text, "last_modified" text, "fetched_at" TIMESTAMP WITH TIME ZONE, "changed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "pk_page_snapshots" PRIMARY KEY ("task_id", "url"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "page_snapshots" ADD CONSTRAINT "fk_page_snapshots_task" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "page_snapshots"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "verdict_execution_id"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "page_results"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "page_rule"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "pages"`);
  }
}
