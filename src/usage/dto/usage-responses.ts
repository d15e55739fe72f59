import { ApiProperty } from '@nestjs/swagger';
import { UuidProperty } from '../../common/openapi/schema-properties';
import type { UserUsageTotals, UsageTotals } from '../usage.repository';
import type { MonthlyUsage } from '../usage.service';

class UsageTotalsResponse implements UsageTotals {
  @ApiProperty({ type: 'integer', description: 'Checks that called a provider' })
  executions: number;

  @ApiProperty({
    type: 'integer',
    description: 'Provider-backed operations: checks, suggestions, previews',
  })
  llm_calls: number;

  @ApiProperty({ type: 'integer' })
  input_tokens: number;

  @ApiProperty({ type: 'integer' })
  output_tokens: number;

  @ApiProperty({ type: 'integer' })
  search_calls: number;

  @ApiProperty({ description: 'USD; calls without a known price count 0' })
  cost_usd: number;
}

export class MonthlyUsageResponse extends UsageTotalsResponse implements MonthlyUsage {
  @ApiProperty({ example: '2026-11', description: 'UTC month' })
  month: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: '`USER_MONTHLY_BUDGET_USD`; null: no budget',
  })
  budget_usd: number | null;
}

export class UserUsageResponse extends UsageTotalsResponse implements UserUsageTotals {
  @UuidProperty()
  user_id: string;

  @ApiProperty({ type: String, nullable: true })
  email: string | null;
}

export class AdminUsagePage {
  @ApiProperty({ type: [UserUsageResponse], description: 'Highest cost first' })
  users: UserUsageResponse[];

  @ApiProperty({ type: 'integer' })
  total: number;
}
