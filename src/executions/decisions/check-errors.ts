import { CodedError } from '../../common/errors/coded-error';
import { budgetReachedMessage } from '../../usage/usage.service';

/** How a check fails on the service's side, whatever the provider says. */
export enum CheckErrorCode {
  /** The owner reached `USER_MONTHLY_BUDGET_USD`: no provider call, checked again next month. */
  BUDGET_REACHED = 'BUDGET_REACHED',
  /** The budget could not be read, so no call was reserved: the check is tried again. */
  BUDGET_UNAVAILABLE = 'BUDGET_UNAVAILABLE',
  /** The database refused the check's result: the check is failed. */
  RESULT_NOT_STORED = 'RESULT_NOT_STORED',
  /** No page of a page task could be read: the check fails, without a model call. */
  ALL_PAGES_FAILED = 'ALL_PAGES_FAILED',
  /** Pages were read but none of the values they declare: the check fails, without a model call. */
  NO_VALUE_READ = 'NO_VALUE_READ',
  /** Its worker went silent on every attempt it had: the check fails, without running again. */
  INTERRUPTED = 'INTERRUPTED',
  /**
   * Its worker was taken for dead while it read its pages, and the check handed to a newer
   * attempt: this one makes no model call, and its outcome is not recorded.
   */
  TAKEN_OVER = 'TAKEN_OVER',
}

export const INTERRUPTED_MESSAGE = 'The check was interrupted and could not be completed';

export class CheckError extends CodedError<CheckErrorCode> {}

/** A check whose owner reached `USER_MONTHLY_BUDGET_USD`: no provider call, retried next month. */
export class BudgetReachedError extends CheckError {
  constructor(budgetUsd: number) {
    super(budgetReachedMessage(budgetUsd), CheckErrorCode.BUDGET_REACHED);
  }
}
