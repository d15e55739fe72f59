import type { MigrationInterface, QueryRunner } from 'typeorm';

// rate_limit_counters is UNLOGGED: a counter lost in a crash only resets one window.

export class InitialSchema1795341730229 implements MigrationInterface {
  name = 'InitialSchema1795341730229';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "clerk_user_id" character varying(255), "email" character varying(320), "username" character varying(30), "role" character varying(16) NOT NULL DEFAULT 'user', "state" character varying(16) NOT NULL DEFAULT 'active', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE, "deactivated_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_users_clerk_user_id" ON "users" ("clerk_user_id") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_username" ON "users" ("username") `);
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "name" character varying(100) NOT NULL, "key_hash" character varying(64) NOT NULL, "key_prefix" character varying(16) NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'active', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_api_keys_user_id" ON "api_keys" ("user_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_api_keys_key_hash" ON "api_keys" ("key_hash") `,
    );
    await queryRunner.query(
      `CREATE UNLOGGED TABLE "rate_limit_counters" ("bucket" character varying(200) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "hits" integer NOT NULL DEFAULT '0', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1d945ced931693101cb40178ac2" PRIMARY KEY ("bucket", "window_start"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_rate_limit_counters_expires_at" ON "rate_limit_counters" ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "tasks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "search_query" text NOT NULL, "condition_description" text NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'active', "notify_behavior" character varying(8) NOT NULL DEFAULT 'once', "next_run" TIMESTAMP WITH TIME ZONE, "is_public" boolean NOT NULL DEFAULT false, "view_count" integer NOT NULL DEFAULT '0', "subscriber_count" integer NOT NULL DEFAULT '0', "forked_from_task_id" uuid, "last_known_state" jsonb, "last_execution_id" uuid, "check_job_id" uuid, "notifications" jsonb NOT NULL DEFAULT '[]', "state_changed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_8d12ff38fcc62aaba2cab748772" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_tasks_forked_from_task_id" ON "tasks" ("forked_from_task_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_tasks_active_next_run" ON "tasks" ("next_run") WHERE state = 'active'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_tasks_public_view_count" ON "tasks" ("view_count") WHERE is_public`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_tasks_public_created_at" ON "tasks" ("created_at") WHERE is_public`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_tasks_user_id_created_at" ON "tasks" ("user_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "executions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "task_id" uuid NOT NULL, "status" character varying(16) NOT NULL, "trigger" character varying(16) NOT NULL DEFAULT 'scheduled', "job_id" uuid, "attempts" integer NOT NULL DEFAULT '0', "worker_id" uuid, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, "result" jsonb, "error_message" text, "notification" jsonb, "grounding_sources" jsonb, "condition_met" boolean, "answer" text, "reasoning" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_703e64e0ef651986191844b7b8b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_executions_job_id" ON "executions" ("job_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_executions_in_flight_task_id" ON "executions" ("task_id") WHERE status IN ('pending', 'running', 'retrying')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_executions_met_task_id_created_at" ON "executions" ("task_id", "created_at") WHERE condition_met`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_executions_failed_created_at" ON "executions" ("created_at") WHERE status = 'failed'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_executions_created_at" ON "executions" ("created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_executions_task_id_created_at" ON "executions" ("task_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "worker_instances" ("id" uuid NOT NULL, "hostname" character varying(255) NOT NULL, "pid" integer NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "heartbeat_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dfea42c425ae86267dbe46abf46" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "notification_sends" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "task_id" uuid NOT NULL, "execution_id" uuid NOT NULL, "recipient" text NOT NULL, "notification_type" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "error_message" text, "attempt" integer NOT NULL DEFAULT '1', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_97112f3ed8784fdb76b202aafdb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_sends_created_at" ON "notification_sends" ("created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_sends_execution_id" ON "notification_sends" ("execution_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_sends_task_id_created_at" ON "notification_sends" ("task_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_sends_user_id_created_at" ON "notification_sends" ("user_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "waitlist_entries" ("position" SERIAL NOT NULL, "email" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_95039c354a00c1c6bd7038680cb" PRIMARY KEY ("position"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_waitlist_entries_email" ON "waitlist_entries" ("email") `,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "fk_api_keys_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD CONSTRAINT "fk_tasks_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "executions" ADD CONSTRAINT "fk_executions_task" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_sends" ADD CONSTRAINT "fk_notification_sends_task" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_sends" ADD CONSTRAINT "fk_notification_sends_execution" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "notification_sends" DROP CONSTRAINT "fk_notification_sends_execution"`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_sends" DROP CONSTRAINT "fk_notification_sends_task"`,
    );
    await queryRunner.query(`ALTER TABLE "executions" DROP CONSTRAINT "fk_executions_task"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP CONSTRAINT "fk_tasks_user"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "fk_api_keys_user"`);
    await queryRunner.query(`DROP INDEX "public"."uq_waitlist_entries_email"`);
    await queryRunner.query(`DROP TABLE "waitlist_entries"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_sends_user_id_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_sends_task_id_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_sends_execution_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_sends_created_at"`);
    await queryRunner.query(`DROP TABLE "notification_sends"`);
    await queryRunner.query(`DROP TABLE "worker_instances"`);
    await queryRunner.query(`DROP INDEX "public"."ix_executions_task_id_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_executions_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_executions_failed_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_executions_met_task_id_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."uq_executions_in_flight_task_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_executions_job_id"`);
    await queryRunner.query(`DROP TABLE "executions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_tasks_user_id_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_tasks_public_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_tasks_public_view_count"`);
    await queryRunner.query(`DROP INDEX "public"."ix_tasks_active_next_run"`);
    await queryRunner.query(`DROP INDEX "public"."ix_tasks_forked_from_task_id"`);
    await queryRunner.query(`DROP TABLE "tasks"`);
    await queryRunner.query(`DROP INDEX "public"."ix_rate_limit_counters_expires_at"`);
    await queryRunner.query(`DROP TABLE "rate_limit_counters"`);
    await queryRunner.query(`DROP INDEX "public"."uq_api_keys_key_hash"`);
    await queryRunner.query(`DROP INDEX "public"."ix_api_keys_user_id"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_username"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_clerk_user_id"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
