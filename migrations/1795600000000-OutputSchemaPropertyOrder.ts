import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A check lists `changes` in the schema's property order, which `jsonb` does not keep (it
 * sorts an object's keys by length). `json` stores the schema as sent; schemas stored before
 * this keep the order `jsonb` gave them.
 */
export class OutputSchemaPropertyOrder1795600000000 implements MigrationInterface {
  name = 'OutputSchemaPropertyOrder1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "tasks" ALTER COLUMN "output_schema" TYPE json USING "output_schema"::json`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "tasks" ALTER COLUMN "output_schema" TYPE jsonb USING "output_schema"::jsonb`,
    );
  }
}
