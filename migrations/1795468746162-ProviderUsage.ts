import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class ProviderUsage1795468746162 implements MigrationInterface {
  name = 'ProviderUsage1795468746162';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "usage_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "execution_id" uuid, "provider" character varying(32) NOT NULL, "model" character varying(200) NOT NULL, "input_tokens" integer NOT NULL, "output_tokens" integer NOT NULL, "search_calls" integer NOT NULL, "cost_usd" numeric(14,6), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c9f17d50873fab2c46615f542bc" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_usage_events_execution_id" ON "usage_events" ("execution_id") WHERE execution_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_usage_events_created_at" ON "usage_events" ("created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_usage_events_user_id_created_at" ON "usage_events" ("user_id", "created_at") `,
    );
    await queryRunner.query(`ALTER TABLE "executions" ADD "usage" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "usage_events" ADD CONSTRAINT "fk_usage_events_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "usage_events" DROP CONSTRAINT "fk_usage_events_user"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "usage"`);
    await queryRunner.query(`DROP INDEX "public"."ix_usage_events_user_id_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_usage_events_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."uq_usage_events_execution_id"`);
    await queryRunner.query(`DROP TABLE "usage_events"`);
  }
}
