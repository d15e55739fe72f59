/** What stops the embedded database from serving this instance. */
export enum DatabaseErrorCode {
  /** Another running instance of the service holds the data directory. */
  DATA_DIRECTORY_IN_USE = 'DATA_DIRECTORY_IN_USE',
}
