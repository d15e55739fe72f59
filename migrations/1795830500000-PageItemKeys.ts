import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The item keys each page with items has shown (docs/pages.md, "Items and feeds"), the most
 * recent 5,000 of a page: what tells a new item from one seen before.
 */
export class PageItemKeys1795830500000 implements MigrationInterface {
  name = 'PageItemKeys1795830500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "page_item_keys" ("task_id" uuid NOT NULL, "url" text NOT NULL, "key_hash" character varying(64) NOT NULL, "seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "position" integer NOT NULL, CONSTRAINT "pk_page_item_keys" PRIMARY KEY ("task_id", "url", "key_hash"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_page_item_keys_recency" ON "page_item_keys" ("task_id", "url", "seen_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "page_item_keys" ADD CONSTRAINT "fk_page_item_keys_task" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "page_item_keys" DROP CONSTRAINT "fk_page_item_keys_task"`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_page_item_keys_recency"`);
    await queryRunner.query(`DROP TABLE "page_item_keys"`);
  }
}
