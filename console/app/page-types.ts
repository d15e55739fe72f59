/**
 * Page monitors' shapes on tasks and executions (docs/pages.md), declared by hand: api-types.ts
 * does not have them yet. Once it does, these become entries of types.ts like the others.
 */
import type { Execution, Task } from './types';

export interface PageTarget {
  url: string;
  selector?: string | null;
  headers?: Record<string, string> | null;
}

export type PageRuleType = 'changed' | 'contains' | 'not_contains';

export interface PageRule {
  type: PageRuleType;
  text?: string;
}

export type PageStatus = 'new' | 'same' | 'changed' | 'error';

export interface PageResult {
  url: string;
  final_url: string | null;
  status: PageStatus;
  http_status: number | null;
  title: string | null;
  error: string | null;
  added: string[];
  removed: string[];
  fetched_at: string;
}

export type TaskWithPages = Task & { pages?: PageTarget[] | null; page_rule?: PageRule | null };

export type ExecutionWithPages = Execution & {
  page_results?: PageResult[] | null;
  verdict_execution_id?: string | null;
};
