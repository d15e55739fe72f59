import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Digests (docs/attention.md, "Digests"): one row per destination, user and period, claimed
 * before each attempt; the held deliveries it gathers point at it.
 */
export class NotificationDigests1795810000000 implements MigrationInterface {
  name = 'NotificationDigests1795810000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "notification_digests" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "channel" character varying(16) NOT NULL, "period_start" TIMESTAMP WITH TIME ZONE NOT NULL, "period_end" TIMESTAMP WITH TIME ZONE NOT NULL, "state" character varying(16) NOT NULL, "attempt" integer NOT NULL, "worker_id" uuid, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d1dfad641230ea835751ccc8493" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_digests_user_id_period_end" ON "notification_digests" ("user_id", "period_end") `,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_digests" ADD CONSTRAINT "fk_notification_digests_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "notification_deliveries" ADD "digest_id" uuid`);
    await queryRunner.query(
      `CREATE INDEX "ix_notification_deliveries_digest_id" ON "notification_deliveries" ("digest_id") WHERE digest_id IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_notification_deliveries_digest_id"`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" DROP COLUMN "digest_id"`);
    await queryRunner.query(
      `ALTER TABLE "notification_digests" DROP CONSTRAINT "fk_notification_digests_user"`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_notification_digests_user_id_period_end"`);
    await queryRunner.query(`DROP TABLE "notification_digests"`);
  }
}
