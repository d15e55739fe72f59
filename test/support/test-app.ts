import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createApp } from '../../src/create-app';
import { createRootLogger, type DestinationStream } from '../../src/common/logging/root-logger';
import { loadConfig, type AppConfig } from '../../src/app.config';
import { LOG_SECRETS } from '../../src/log-secrets';
import { runMigrations } from '../../src/database/migrate';
import type { GeminiStandIn } from './gemini-stand-in';
import { JwksServer } from './jwks-server';
import type { RecordedRequest, WireStandIn } from './wire-stand-in';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  /** supertest against the running server */
  http: TestAgent;
  baseUrl: string;
  databaseUrl: string;
  /** direct access to the test database, for arranging and inspecting state */
  db: Pool;
  jwks: JwksServer;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Reuse an existing database (a second instance, a restart) instead of creating one. */
  databaseUrl?: string;
  jwks?: JwksServer;
  /** Point the Gemini provider at this local stand-in. */
  gemini?: GeminiStandIn;
  /** Select the provider this stand-in speaks for and point it there (any provider). */
  search?: WireStandIn<RecordedRequest<object>>;
  /**
   * Where the application's log lines go (stdout by default). nestjs-pino keeps one logger per
   * process for the lines of services outside a check and a delivery: the first application a
   * test file starts owns it.
   */
  logDestination?: DestinationStream;
}

function adminUrl(): string {
  const url = process.env.TEST_ADMIN_DATABASE_URL;
  if (!url)
    throw new Error(
      'TEST_ADMIN_DATABASE_URL is not set: run the tests through jest (global setup)',
    );
  return url;
}

/** Creates an empty database of its own for one test file. */
export async function createTestDatabase(): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Boots the real application on 127.0.0.1 against a real PostgreSQL database. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownsDatabase = !options.databaseUrl;
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const ownsJwks = !options.jwks;
  const jwks = options.jwks ?? (await new JwksServer().start());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl,
    JWT_JWKS_URL: jwks.jwksUrl,
    JWT_ISSUER: jwks.issuer,
    JWT_AUDIENCE: jwks.audience,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // Tests mail arbitrary addresses; the verified policy has tests of its own that set it.
    EMAIL_RECIPIENT_POLICY: 'any',
    ...(options.gemini
      ? { GEMINI_API_KEY: options.gemini.apiKey, GEMINI_BASE_URL: options.gemini.baseUrl }
      : {}),
    ...options.search?.env(),
    ...options.env,
  });
  await runMigrations(databaseUrl);
  const logger = createRootLogger({
    level: config.server.logLevel,
    destination: options.logDestination,
    secrets: LOG_SECRETS,
  });
  const app = await createApp(config, databaseUrl, logger);
  await app.listen(0, '127.0.0.1');
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const db = new Pool({ connectionString: databaseUrl, max: 3 });
  // The database is dropped WITH (FORCE) at the end: a connection that drop ends is expected.
  db.on('error', () => undefined);
  return {
    app,
    config,
    http: request(baseUrl),
    baseUrl,
    databaseUrl,
    db,
    jwks,
    async close() {
      try {
        await app.close();
      } finally {
        await db.end();
        if (ownsJwks) await jwks.stop();
        if (ownsDatabase) await dropTestDatabase(databaseUrl);
      }
    },
  };
}
