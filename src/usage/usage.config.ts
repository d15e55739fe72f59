import { defineConfig, type ConfigOf } from '../config/config-slice';

export const usageConfig = defineConfig('usage', (read) => ({
  /** `USER_MONTHLY_BUDGET_USD`; null: no budget. */
  userMonthlyBudgetUsd: read.decimal('USER_MONTHLY_BUDGET_USD', 0),
}));
export type UsageConfig = ConfigOf<typeof usageConfig>;
