/** What went wrong in authentication, on the service's side. */
export enum AuthErrorCode {
  /** The identity provider's keys could not be had: JWTs cannot be verified (503). */
  KEYS_UNAVAILABLE = 'KEYS_UNAVAILABLE',
}
