import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `Idempotency-Key`s (docs/api.md, "Idempotency-Key"), per user, kept 24 hours (the index serves
 * the sweep of expired keys).
 */
export class IdempotencyKeys1795582796978 implements MigrationInterface {
  name = 'IdempotencyKeys1795582796978';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("user_id" uuid NOT NULL, "key" character varying(255) NOT NULL, "claim" uuid NOT NULL, "fingerprint" character varying(64) NOT NULL, "response_status" smallint, "response_body" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_392b1af86f210d98d3f0c764728" PRIMARY KEY ("user_id", "key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_idempotency_keys_created_at" ON "idempotency_keys" ("created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" ADD CONSTRAINT "fk_idempotency_keys_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" DROP CONSTRAINT "fk_idempotency_keys_user"`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_idempotency_keys_created_at"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
