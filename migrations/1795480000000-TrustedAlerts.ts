import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alerts people can trust (docs/api.md, "Values, evidence, confirmation and retraction"): a task's
 * `output_schema` and `evidence` and the execution whose alert stands (what a retraction
 * withdraws); an execution's model verdict, evidence, values, changes and the schema its values
 * were read with; `notify_behavior` long enough for `on_change`.
 */
export class TrustedAlerts1795480000000 implements MigrationInterface {
  name = 'TrustedAlerts1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tasks" ADD "output_schema" jsonb`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD "evidence" jsonb`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD "alert_execution_id" uuid`);
    await queryRunner.query(
      `ALTER TABLE "tasks" ALTER COLUMN "notify_behavior" TYPE character varying(16)`,
    );
    await queryRunner.query(`ALTER TABLE "executions" ADD "claimed_met" boolean`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "evidence" jsonb`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "output_values" jsonb`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "value_changes" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "executions" ADD "values_schema_key" character varying(64)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "values_schema_key"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "value_changes"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "output_values"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "evidence"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "claimed_met"`);
    await queryRunner.query(
      `UPDATE "tasks" SET "notify_behavior" = 'always' WHERE "notify_behavior" = 'on_change'`,
    );
    await queryRunner.query(
      `ALTER TABLE "tasks" ALTER COLUMN "notify_behavior" TYPE character varying(8)`,
    );
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "alert_execution_id"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "evidence"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "output_schema"`);
  }
}
