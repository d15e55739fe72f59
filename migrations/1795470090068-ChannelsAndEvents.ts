import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * More channels and events (docs/api.md, "Notifications"): verified email recipients
 * (`email_verifications`), the failing streak of a task, the event of deliveries and send records,
 * and test sends (send records without an execution).
 */
export class ChannelsAndEvents1795470090068 implements MigrationInterface {
  name = 'ChannelsAndEvents1795470090068';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "email_verifications" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "email" character varying(320) NOT NULL, "status" character varying(16) NOT NULL, "code_hash" text, "code_expires_at" TIMESTAMP WITH TIME ZONE, "failed_attempts" integer NOT NULL DEFAULT '0', "verified_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c1ea2921e767f83cd44c0af203f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_email_verifications_user_id_email" ON "email_verifications" ("user_id", "email") `,
    );
    await queryRunner.query(
      `ALTER TABLE "email_verifications" ADD CONSTRAINT "fk_email_verifications_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD "consecutive_failures" integer NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD "failure_alerted" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" ADD "event" character varying(24) NOT NULL DEFAULT 'condition_met'`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_sends" ADD "event" character varying(24) NOT NULL DEFAULT 'condition_met'`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_sends" ALTER COLUMN "execution_id" DROP NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "notification_sends" WHERE "execution_id" IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "notification_sends" ALTER COLUMN "execution_id" SET NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "notification_sends" DROP COLUMN "event"`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" DROP COLUMN "event"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "failure_alerted"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "consecutive_failures"`);
    await queryRunner.query(`DROP TABLE "email_verifications"`);
  }
}
