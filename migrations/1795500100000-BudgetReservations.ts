import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The monthly budget (docs/api.md, "Usage"): provider calls under way count against their user's
 * monthly budget (`budget_reservations`) until their usage is recorded.
 */
export class BudgetReservations1795500100000 implements MigrationInterface {
  name = 'BudgetReservations1795500100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "budget_reservations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "estimated_cost_usd" numeric(14,6) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_budget_reservations" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_budget_reservations_user_id_created_at" ON "budget_reservations" ("user_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "budget_reservations" ADD CONSTRAINT "fk_budget_reservations_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "budget_reservations" DROP CONSTRAINT "fk_budget_reservations_user"`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_budget_reservations_user_id_created_at"`);
    await queryRunner.query(`DROP TABLE "budget_reservations"`);
  }
}
