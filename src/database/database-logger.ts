import type { Logger as PinoLogger } from 'pino';
import type { Logger } from 'typeorm';
import { statementName } from '../common/logging/statement-name';

/**
 * TypeORM's logger on the service's log (docs/logging.md, "What is never logged"). A statement is
 * named by `statementName` alone, never with its parameters (a task's notification configs, a
 * page's headers) nor with what the database said of it (a message may quote a value):
 *
 * - a failed statement: a warning with its SQLSTATE (`code`) and its name; whoever ran it decides
 *   whether the failure is an error, and logs it if so (a unique violation is often an answer);
 * - a slow one (`maxQueryExecutionTime`, when set): a warning with its name and duration;
 * - every statement run (`logQuery`): never logged;
 * - schema building and migrations: debug lines of TypeORM's own words (a migration that fails
 *   is thrown to the caller, which logs it); TypeORM's notices (a pool error): warnings.
 */
export class DatabaseLogger implements Logger {
  private readonly logger: PinoLogger;

  constructor(root: PinoLogger) {
    this.logger = root.child({ context: 'Database' });
  }

  logQuery(): void {
    // Every statement with its parameters: never logged.
  }

  /** `error` is the driver's: its `code` is the SQLSTATE, or the socket's error code. */
  logQueryError(error: string | Error, query: string): void {
    const code = typeof error === 'string' ? undefined : (error as { code?: unknown }).code;
    this.logger.warn(
      { code: typeof code === 'string' ? code : null, statement: statementName(query) },
      'Statement failed',
    );
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ durationMs: time, statement: statementName(query) }, 'Slow statement');
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.debug(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}
