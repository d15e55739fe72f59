import { allPagesFailed, pageSources, promptPages } from '../../pages/results/page-prompt';
import { evaluatePageRule } from '../../pages/rules/page-rule';
import { noValueRead, readTaskValues } from '../../pages/values/task-values';
import type { PageResult, PageRule } from '../../pages/page.types';
import type { OutputValues } from '../../search/output-schema';
import type { GroundingSource, PromptPage } from '../../search/search.types';
import type { CheckAnswer } from './check-outcome';
import { CheckErrorCode } from './check-errors';

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
  /**
   * The task reports its page values' changes and judges nothing (`on_change`, page values, no
   * rule): no model is called.
   */
  valuesOnly: boolean;
  earlier: EarlierVerdict | null;
  /** `PAGE_PROMPT_MAX_CHARS`. */
  promptMaxChars: number;
}

/** What a check of a task with pages does once its pages are read. */
export type PageCheckDecision =
  /** Every page is an error, or no declared value was read: the check fails with this message. */
  | { kind: 'failed'; message: string; code: CheckErrorCode }
  /** Answered without a model: by the page rule, or the earlier verdict carried. */
  | { kind: 'answered'; answer: CheckAnswer }
  /** One model call with these pages; its execution's values are the pages' (null: none). */
  | { kind: 'model'; pages: PromptPage[]; sources: GroundingSource[]; values: OutputValues | null };

/**
 * Decides a page check (docs/pages.md, "Checks of page tasks"): every page an error fails it, and
 * so does reading no value of those the pages declare; a page rule answers without a model, and
 * so does a task that only reports its values' changes; unchanged pages carry the earlier verdict
 * (unless that one waits for confirmation); anything else is one model call with the pages that
 * were read. The execution's values are the pages' (docs/pages.md, "Values read from pages").
 */
export function decidePageCheck(input: PageCheckInput): PageCheckDecision {
  const read = input.pages.filter(isRead);
  if (read.length === 0) {
    return {
      kind: 'failed',
      message: allPagesFailed(input.pages),
      code: CheckErrorCode.ALL_PAGES_FAILED,
    };
  }
  const missing = noValueRead(input.pages);
  if (missing !== null)
    return { kind: 'failed', message: missing, code: CheckErrorCode.NO_VALUE_READ };
  const values = readTaskValues(input.pages);
  const sources = pageSources(input.pages);
  if (input.rule !== null || input.valuesOnly) {
    const verdict: RuleVerdict =
      input.rule === null ? valuesRead(values ?? {}) : evaluatePageRule(input.rule, input.pages);
    return {
      kind: 'answered',
      answer: {
        conditionMet: verdict.claimedMet,
        answer: verdict.answer,
        reasoning: verdict.reasoning,
        currentState: verdict.currentState,
        nextCheckAt: null,
        groundingSources: sources,
        values,
        usage: null,
      },
    };
  }
  const earlier = input.earlier;
  if (earlier !== null && carriesEarlierVerdict(earlier, input.pages)) {
    return {
      kind: 'answered',
      answer: {
        conditionMet: earlier.claimedMet,
        answer: earlier.answer,
        reasoning: earlier.reasoning,
        currentState: earlier.currentState,
        nextCheckAt: null,
        groundingSources: sources,
        values: values ?? earlier.values,
        usage: null,
        carriedFrom: {
          verdictExecutionId: earlier.verdictExecutionId,
          conditionMet: earlier.conditionMet,
        },
      },
    };
  }
  return {
    kind: 'model',
    pages: promptPages(input.pages, input.promptMaxChars),
    sources,
    values,
  };
}

/**
 * Whether deciding reads the texts of the pages found `same` (which a check loads only then): a
 * rule on the text does, and so does a model call, which shows every page that was read.
 */
export function readsUnchangedTexts(input: Omit<PageCheckInput, 'promptMaxChars'>): boolean {
  if (input.rule !== null)
    return input.rule.type === 'contains' || input.rule.type === 'not_contains';
  if (input.valuesOnly) return false;
  return input.earlier === null || !carriesEarlierVerdict(input.earlier, input.pages);
}

/** Unchanged pages carry a verdict that does not wait for confirmation. */
function carriesEarlierVerdict(earlier: EarlierVerdict, pages: readonly PageResult[]): boolean {
  return !earlier.awaitingConfirmation && pages.filter(isRead).every(isSame);
}

/**
 * The verdict of a task that only reports its page values' changes: it judges nothing, so its
 * condition is never met; its answer lists the values read.
 */
function valuesRead(values: OutputValues): RuleVerdict {
  const listed = Object.entries(values)
    .map(([name, value]) => `${name}: ${value === null ? 'not read' : JSON.stringify(value)}`)
    .join(', ');
  return {
    claimedMet: false,
    answer: `Values read: ${listed}`,
    reasoning: 'This task reports changes of the values its pages read; it judges no condition.',
    currentState: { values },
  };
}

/** A verdict made without a model. */
interface RuleVerdict {
  claimedMet: boolean;
  answer: string;
  reasoning: string;
  currentState: Record<string, unknown>;
}

/** A page that is not `error`. */
type ReadPage = PageResult & { status: PromptPage['status'] };

function isRead(page: PageResult): page is ReadPage {
  return page.status !== 'error';
}

function isSame(page: PageResult): boolean {
  return page.status === 'same';
}
