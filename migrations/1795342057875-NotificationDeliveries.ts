import type { MigrationInterface, QueryRunner } from 'typeorm';

export class NotificationDeliveries1795342057875 implements MigrationInterface {
  name = 'NotificationDeliveries1795342057875';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "notification_deliveries" ("id" uuid NOT NULL, "execution_id" uuid NOT NULL, "task_id" uuid NOT NULL, "channel" character varying(16) NOT NULL, "state" character varying(16) NOT NULL, "attempt" integer NOT NULL, "job_id" uuid NOT NULL, "worker_id" uuid, "recoveries" integer NOT NULL DEFAULT '0', "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_81daeff81f237bd384f7cfc4a4c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_deliveries_execution_id" ON "notification_deliveries" ("execution_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_deliveries_open_updated_at" ON "notification_deliveries" ("updated_at") WHERE state IN ('sending', 'retry_scheduled')`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" ADD CONSTRAINT "fk_notification_deliveries_execution" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" DROP CONSTRAINT "fk_notification_deliveries_execution"`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_notification_deliveries_open_updated_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_deliveries_execution_id"`);
    await queryRunner.query(`DROP TABLE "notification_deliveries"`);
  }
}
