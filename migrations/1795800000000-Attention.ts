import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attention (docs/attention.md): a task's alert policy and standing alert, its configs' failures
 * in a row, a user's preferences, and deliveries and send records that wait (held).
 */
export class Attention1795800000000 implements MigrationInterface {
  name = 'Attention1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tasks" ADD "alert_policy" jsonb`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD "alert_notified_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD "alert_acknowledged_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD "alert_repeats_sent" integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(`ALTER TABLE "tasks" ADD "alert_sent_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD "notification_failures" jsonb NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(`ALTER TABLE "users" ADD "preferences" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" ADD "held_until" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" ADD "hold_reason" character varying(16)`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" ADD "cooldown_until" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(`ALTER TABLE "notification_deliveries" ADD "folded" integer`);
    await queryRunner.query(`ALTER TABLE "notification_sends" ADD "delivery_id" uuid`);
    await queryRunner.query(
      `CREATE INDEX "ix_notification_sends_held_delivery_id" ON "notification_sends" ("delivery_id") WHERE status = 'held'`,
    );
    // Open deliveries include the held ones now (a deactivation cancels them too).
    await queryRunner.query(`DROP INDEX "public"."ix_notification_deliveries_open_updated_at"`);
    await queryRunner.query(
      `CREATE INDEX "ix_notification_deliveries_open_updated_at" ON "notification_deliveries" ("updated_at") WHERE state IN ('held', 'sending', 'retry_scheduled')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_deliveries_cooldown" ON "notification_deliveries" ("task_id", "cooldown_until") WHERE cooldown_until IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_notification_deliveries_cooldown"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_deliveries_open_updated_at"`);
    await queryRunner.query(
      `CREATE INDEX "ix_notification_deliveries_open_updated_at" ON "notification_deliveries" ("updated_at") WHERE state IN ('sending', 'retry_scheduled')`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_notification_sends_held_delivery_id"`);
    await queryRunner.query(`ALTER TABLE "notification_sends" DROP COLUMN "delivery_id"`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" DROP COLUMN "folded"`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" DROP COLUMN "cooldown_until"`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" DROP COLUMN "hold_reason"`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" DROP COLUMN "held_until"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "preferences"`);
    for (const column of [
      'notification_failures',
      'alert_sent_at',
      'alert_repeats_sent',
      'alert_acknowledged_at',
      'alert_notified_at',
      'alert_policy',
    ]) {
      await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "${column}"`);
    }
  }
}
