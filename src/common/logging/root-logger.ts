import pino, { type DestinationStream, type Logger } from 'pino';
import { CENSORED, LogRedaction, type LogSecrets } from './log-redaction';

export type { DestinationStream, Logger as RootLogger };

export interface RootLoggerOptions {
  /** `LOG_LEVEL`: debug, info, warn or error. */
  level: string;
  /** Where the JSON lines go; stdout by default (tests pass a stream of their own). */
  destination?: DestinationStream;
  /** The secret field names and shapes of the registered providers and channels (`LOG_SECRETS`). */
  secrets: readonly LogSecrets[];
}

let stdout: DestinationStream | undefined;

/**
 * The process's logger: one JSON line per entry (`level` as a word, ISO `time`), secrets
 * censored by field name and masked in text (`log-redaction.ts`), errors reduced to their
 * class, message, code and stack. Every other logger is a child of it.
 */
export function createRootLogger({ level, destination, secrets }: RootLoggerOptions): Logger {
  // One stdout stream for every logger of the process (tests start several applications).
  stdout ??= pino.destination(1);
  const redaction = new LogRedaction(secrets);
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: (error: unknown) => redaction.serializeError(error) },
      redact: { paths: redaction.paths, censor: CENSORED },
      hooks: {
        logMethod(args, method) {
          method.apply(this, redaction.scrubLogArguments(args) as Parameters<typeof method>);
        },
      },
    },
    destination ?? stdout,
  );
}
