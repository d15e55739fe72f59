import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin role is now worked out from the latest token (docs/api.md, "Authentication"): `role`
 * holds what that token's role claim said, `email_verified` whether its email was verified. Roles
 * granted before by an unverified `ADMIN_EMAILS` match are withdrawn; a role claim restores the
 * role at the user's next token.
 */
export class UserEmailVerified1795420000000 implements MigrationInterface {
  name = 'UserEmailVerified1795420000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "users" ADD "email_verified" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `UPDATE "users" SET "role" = 'user' WHERE "role" = 'admin' AND "clerk_user_id" IS DISTINCT FROM 'local'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "email_verified"`);
  }
}
