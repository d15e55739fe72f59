import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Popularity counters (docs/api.md, "Tasks"): the users who forked a task (`task_subscribers`, one
 * row per user, so `subscriber_count` counts distinct users) and the public views already counted
 * (`task_view_marks`, one per task, client network and hour). The users of existing forks of
 * another user's task are recorded, so forking again does not count them twice.
 */
export class PopularityCounters1795500000000 implements MigrationInterface {
  name = 'PopularityCounters1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "task_subscribers" ("task_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_task_subscribers" PRIMARY KEY ("task_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "task_view_marks" ("task_id" uuid NOT NULL, "client" character varying(64) NOT NULL, "hour" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_task_view_marks" PRIMARY KEY ("task_id", "client", "hour"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_task_view_marks_hour" ON "task_view_marks" ("hour") `,
    );
    await queryRunner.query(
      `ALTER TABLE "task_subscribers" ADD CONSTRAINT "fk_task_subscribers_task" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "task_subscribers" ADD CONSTRAINT "fk_task_subscribers_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "task_view_marks" ADD CONSTRAINT "fk_task_view_marks_task" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `INSERT INTO "task_subscribers" ("task_id", "user_id", "created_at")
       SELECT f."forked_from_task_id", f."user_id", min(f."created_at")
       FROM "tasks" f JOIN "tasks" s ON s."id" = f."forked_from_task_id"
       WHERE s."user_id" <> f."user_id"
       GROUP BY f."forked_from_task_id", f."user_id"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "task_view_marks" DROP CONSTRAINT "fk_task_view_marks_task"`,
    );
    await queryRunner.query(
      `ALTER TABLE "task_subscribers" DROP CONSTRAINT "fk_task_subscribers_user"`,
    );
    await queryRunner.query(
      `ALTER TABLE "task_subscribers" DROP CONSTRAINT "fk_task_subscribers_task"`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_task_view_marks_hour"`);
    await queryRunner.query(`DROP TABLE "task_view_marks"`);
    await queryRunner.query(`DROP TABLE "task_subscribers"`);
  }
}
