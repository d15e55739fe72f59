/** What went wrong in a grounded search: the code of `ProviderError` and its neighbours. */
export enum SearchErrorCode {
  /** The call may pass when tried again later: a 429, a 5xx, a network failure, a timeout. */
  PROVIDER_UNAVAILABLE = 'PROVIDER_UNAVAILABLE',
  /** The provider refused the call, or its reply cannot be used. */
  PROVIDER_FAILED = 'PROVIDER_FAILED',
  /** No provider has its credentials. */
  PROVIDER_NOT_CONFIGURED = 'PROVIDER_NOT_CONFIGURED',
  /** A task's `output_schema` breaks a rule. */
  INVALID_OUTPUT_SCHEMA = 'INVALID_OUTPUT_SCHEMA',
  /** A reply's values do not fit the task's `output_schema`. */
  VALUES_MISMATCH = 'VALUES_MISMATCH',
}
