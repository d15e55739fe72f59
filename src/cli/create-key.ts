import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { ConfigValidationError, loadConfig, type AppConfig } from '../app.config';
import { ApiKeyService } from '../auth/api-key.service';
import pino from 'pino';
import { createRootLogger } from '../common/logging/root-logger';
import { LOG_SECRETS } from '../log-secrets';
import { loadEnvFile } from '../config/env-file';
import { prepareDatabase } from '../database/prepare-database';
import { UsersService } from '../users/users.service';
import { CreateKeyModule } from './create-key.module';

const USAGE = `Usage: npm run create-key -- --email <address> [--admin] [--name <key name>]

Creates the user with that email (or uses the existing one) and an API key of theirs, in the
database the service is configured with (DATABASE_URL, or the embedded database under DATA_DIR),
and prints the key once. --admin gives the user the admin role.`;

const DEFAULT_KEY_NAME = 'API key';
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

interface Options {
  email: string;
  admin: boolean;
  name: string;
}

/** The arguments; `help` once the usage is shown; null (after saying why on stderr) when unusable. */
function readOptions(argv: string[]): Options | 'help' | null {
  let values: { email?: string; admin?: boolean; name?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        admin: { type: 'boolean', default: false },
        name: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return null;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 'help';
  }
  const email = values.email?.trim() ?? '';
  const name = values.name?.trim() ?? DEFAULT_KEY_NAME;
  const problems = [
    ...(EMAIL_PATTERN.test(email) && email.length <= 320
      ? []
      : ['--email: an email address is required']),
    ...(name.length >= 1 && name.length <= 100 ? [] : ['--name: 1 to 100 characters']),
  ];
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n\n${USAGE}\n`);
    return null;
  }
  return { email, admin: values.admin ?? false, name };
}

async function createKey(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (options === 'help') return 0;
  if (options === null) return 2;
  loadEnvFile();
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  // Only problems are logged, to stderr: stdout is for the key.
  const logger = createRootLogger({
    level: 'warn',
    destination: pino.destination({ fd: 2, sync: true }),
    secrets: LOG_SECRETS,
  });
  // Beside a running service on the embedded database, use its server rather than start one.
  const database = await prepareDatabase(config.database, logger, { reuseRunningServer: true });
  try {
    const app = await NestFactory.createApplicationContext(
      CreateKeyModule.forRoot(config, database.url, logger),
      { logger: false, abortOnError: false },
    );
    try {
      const user = await app.get(UsersService).provisionByEmail(options.email, options.admin);
      const created = await app.get(ApiKeyService).create(user.id, options.name);
      const admin = app.get(UsersService).isAdmin(user);
      process.stdout.write(
        [
          `Created the API key "${options.name}" for ${user.email ?? options.email}${admin ? ' (admin)' : ''}, user ${user.id}.`,
          'It is shown only this once:',
          '',
          `  ${created.key}`,
          '',
          `Send it as a Bearer token: curl -H 'Authorization: Bearer sk_...' ${config.server.publicUrl}/auth/me`,
          '',
        ].join('\n'),
      );
      return 0;
    } finally {
      await app.close();
    }
  } finally {
    await database.embedded?.stop();
  }
}

createKey().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `create-key failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
