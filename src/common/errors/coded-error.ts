/**
 * An error of the service's own. Its `code` says what went wrong, from its module's enum
 * (`SearchErrorCode`, `CheckErrorCode`, `OutboundErrorCode`, ...): retries and every other
 * branch on a failure read the code, never the class name or the message, and the log writes
 * it beside the message (docs/logging.md).
 */
export abstract class CodedError<Code extends string = string> extends Error {
  constructor(
    message: string,
    readonly code: Code,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The code of one of the service's own errors; undefined for any other (a bug's TypeError). */
export function errorCodeOf(error: unknown): string | undefined {
  return isCodedError(error) ? error.code : undefined;
}

function isCodedError(error: unknown): error is CodedError {
  return error instanceof CodedError;
}
