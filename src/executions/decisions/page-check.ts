import { allPagesFailed, pageSources, promptPages } from '../../pages/results/page-prompt';
import { evaluatePageRule } from '../../pages/rules/page-rule';
import type { PageResult, PageRule } from '../../pages/page.types';
import type { OutputValues } from '../../search/output-schema';
import type { GroundingSource, PromptPage } from '../../search/search.types';
import type { CheckAnswer } from './check-outcome';

/** A task's latest successful execution, as a check whose pages are unchanged may carry it. */
export interface EarlierVerdict {
  /** The execution whose model call (or page rule) made the verdict. */
  verdictExecutionId: string;
  claimedMet: boolean;
  conditionMet: boolean;
  answer: string;
  reasoning: string;
  values: OutputValues | null;
  currentState: Record<string, unknown>;
  /** Its condition was met and waits for confirmation: such a verdict is not carried. */
  awaitingConfirmation: boolean;
}

export interface PageCheckInput {
  pages: readonly PageResult[];
  rule: PageRule | null;
  earlier: EarlierVerdict | null;
  /** `PAGE_PROMPT_MAX_CHARS`. */
  promptMaxChars: number;
}

/** What a check of a task with pages does once its pages are read. */
export type PageCheckDecision =
  /** Every page is an error: the check fails with this message. */
  | { kind: 'failed'; message: string }
  /** Answered without a model: by the page rule, or the earlier verdict carried. */
  | { kind: 'answered'; answer: CheckAnswer }
  /** One model call with these pages. */
  | { kind: 'model'; pages: PromptPage[]; sources: GroundingSource[] };

/**
 * Decides a page check (docs/pages.md, "Checks of page tasks"): every page an error fails it; a
 * page rule answers without a model; unchanged pages carry the earlier verdict (unless that one
 * waits for confirmation); anything else is one model call with the pages that were read.
 */
export function decidePageCheck(input: PageCheckInput): PageCheckDecision {
  const read = input.pages.filter(isRead);
  if (read.length === 0) return { kind: 'failed', message: allPagesFailed(input.pages) };
  const sources = pageSources(input.pages);
  if (input.rule !== null) {
    const verdict = evaluatePageRule(input.rule, input.pages);
    return {
      kind: 'answered',
      answer: {
        conditionMet: verdict.claimedMet,
        answer: verdict.answer,
        reasoning: verdict.reasoning,
        currentState: verdict.currentState,
        nextCheckAt: null,
        groundingSources: sources,
        values: null,
        usage: null,
      },
    };
  }
  const earlier = input.earlier;
  if (earlier !== null && !earlier.awaitingConfirmation && read.every(isSame)) {
    return {
      kind: 'answered',
      answer: {
        conditionMet: earlier.claimedMet,
        answer: earlier.answer,
        reasoning: earlier.reasoning,
        currentState: earlier.currentState,
        nextCheckAt: null,
        groundingSources: sources,
        values: earlier.values,
        usage: null,
        carriedFrom: {
          verdictExecutionId: earlier.verdictExecutionId,
          conditionMet: earlier.conditionMet,
        },
      },
    };
  }
  return { kind: 'model', pages: promptPages(input.pages, input.promptMaxChars), sources };
}

/** A page that is not `error`. */
type ReadPage = PageResult & { status: PromptPage['status'] };

function isRead(page: PageResult): page is ReadPage {
  return page.status !== 'error';
}

function isSame(page: PageResult): boolean {
  return page.status === 'same';
}
