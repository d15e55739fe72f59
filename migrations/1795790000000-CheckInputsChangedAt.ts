import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a task's query, condition, output schema, pages or page rule last changed: a page check
 * carries only a verdict made after it (docs/pages.md, "Checks of page tasks").
 */
export class CheckInputsChangedAt1795790000000 implements MigrationInterface {
  name = 'CheckInputsChangedAt1795790000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD "check_inputs_changed_at" TIMESTAMP WITH TIME ZONE`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "check_inputs_changed_at"`);
  }
}
