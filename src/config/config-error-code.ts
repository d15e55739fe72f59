/** What stops the service from starting with its configuration. */
export enum ConfigErrorCode {
  /** One or more variables are missing or malformed; the message lists every one. */
  INVALID_CONFIGURATION = 'INVALID_CONFIGURATION',
}
