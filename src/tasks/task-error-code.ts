/** What is wrong with a task's input, beyond its DTO's field rules. */
export enum TaskErrorCode {
  /** `evidence` breaks a rule (docs/api.md, "Values, evidence, confirmation and retraction"). */
  INVALID_EVIDENCE_RULE = 'INVALID_EVIDENCE_RULE',
}
