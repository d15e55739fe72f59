import pino, { type DestinationStream, type Logger } from 'pino';
import { CENSORED, REDACT_PATHS, scrubLogArguments, serializeError } from './log-redaction';

export type { DestinationStream, Logger as RootLogger };

export interface RootLoggerOptions {
  /** `LOG_LEVEL`: debug, info, warn or error. */
  level: string;
  /** Where the JSON lines go; stdout by default (tests pass a stream of their own). */
  destination?: DestinationStream;
}

let stdout: DestinationStream | undefined;

/**
 * The process's logger: one JSON line per entry (`level` as a word, ISO `time`), secrets
 * censored by field name and masked in text (`log-redaction.ts`), errors reduced to their
 * class, message, code and stack. Every other logger is a child of it.
 */
export function createRootLogger({ level, destination }: RootLoggerOptions): Logger {
  // One stdout stream for every logger of the process (tests start several applications).
  stdout ??= pino.destination(1);
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
      redact: { paths: REDACT_PATHS, censor: CENSORED },
      hooks: {
        logMethod(args, method) {
          method.apply(this, scrubLogArguments(args) as Parameters<typeof method>);
        },
      },
    },
    destination ?? stdout,
  );
}
