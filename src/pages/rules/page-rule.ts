import { BadRequestException } from '@nestjs/common';
import { newItemsVerdict } from '../items/new-items-rule';
import type { PageResult, PageRule, PageTarget } from '../page.types';
import { declaredValueNames } from '../values/page-value-names';
import { evaluateValueRule, isValueRule, validateValueRule } from '../values/value-rules';

const MAX_RULE_TEXT_CHARS = 200;
/** Added and removed lines quoted in a `changed` rule's reasoning, each. */
const QUOTED_LINES = 3;

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid page_rule: ${reason}`);
}

/** What decides whether a task's verdict needs a model. */
export interface VerdictInputs {
  pageRule: PageRule | null;
  pages: readonly PageTarget[] | null;
  notifyBehavior: string;
}

/**
 * Whether a task's verdict needs a model: not when a `page_rule` decides each check from the
 * pages (docs/pages.md, "Page rules"), nor when an `on_change` task's pages read values, whose
 * changes are all it reports (docs/pages.md, "Values read from pages").
 */
export function verdictNeedsModel(task: VerdictInputs): boolean {
  if (task.pageRule !== null) return false;
  return task.notifyBehavior !== 'on_change' || declaredValueNames(task.pages).length === 0;
}

/** A `page_rule` as saved (docs/pages.md, "Page rules"); 400 `Invalid page_rule: ...` otherwise. */
export function validatePageRule(value: unknown): PageRule {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('must be an object with a type');
  }
  const { type, text, ...rest } = value as Record<string, unknown>;
  if (type === 'below' || type === 'above' || type === 'equals') {
    if (text !== undefined) throw invalid(`text is not allowed with type ${type}`);
    return validateValueRule(type, rest);
  }
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw invalid(`unknown field ${unknown[0]}`);
  if (type === 'changed' || type === 'new_items') {
    if (text !== undefined) throw invalid(`text is not allowed with type ${type}`);
    return { type };
  }
  if (type !== 'contains' && type !== 'not_contains') {
    throw invalid(
      'type must be changed, new_items, contains, not_contains, below, above or equals',
    );
  }
  if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_RULE_TEXT_CHARS) {
    throw invalid(`text must be 1 to ${MAX_RULE_TEXT_CHARS} characters`);
  }
  return { type, text };
}

export interface PageRuleVerdict {
  claimedMet: boolean;
  answer: string;
  reasoning: string;
  currentState: { rule: PageRule['type']; met: boolean } & Record<string, unknown>;
}

/**
 * What a page rule makes of a check's pages (docs/pages.md, "Page rules"), with no model:
 * `changed` is met when some page changed (a first fetch is the baseline), `contains` when some
 * readable page holds the text (case-insensitively), `not_contains` when some page was read and
 * none holds it.
 */
export function evaluatePageRule(rule: PageRule, results: readonly PageResult[]): PageRuleVerdict {
  if (rule.type === 'new_items') return newItemsVerdict(results);
  if (isValueRule(rule)) return evaluateValueRule(rule, results);
  const readable = results.filter((result) => result.status !== 'error');
  const verdict =
    rule.type === 'changed' ? changedVerdict(readable) : containsVerdict(rule, readable);
  const hashes = readable.map((result) => [result.url, result.contentHash ?? ''] as const);
  return {
    ...verdict,
    currentState: {
      rule: rule.type,
      met: verdict.claimedMet,
      content_hashes: Object.fromEntries(hashes),
    },
  };
}

type Verdict = Omit<PageRuleVerdict, 'currentState'>;

function changedVerdict(readable: readonly PageResult[]): Verdict {
  const changed = readable.filter((result) => result.status === 'changed');
  if (changed.length === 0) {
    const baseline = readable.length > 0 && readable.every((result) => result.status === 'new');
    return {
      claimedMet: false,
      answer: 'No page changed',
      reasoning: baseline
        ? 'First fetch: the text read now is the baseline later checks compare with.'
        : 'Every page read has the same text as at its last good fetch.',
    };
  }
  return {
    claimedMet: true,
    answer: changed
      .map(
        (result) =>
          `${result.url} changed: ${count(result.added.length)} added, ${result.removed.length} removed`,
      )
      .join('; '),
    reasoning: changed.map(changeQuote).join(' '),
  };
}

function containsVerdict(
  rule: Extract<PageRule, { text: string }>,
  readable: readonly PageResult[],
): Verdict {
  const needle = rule.text.toLowerCase();
  const holding = readable.filter((result) => (result.text ?? '').toLowerCase().includes(needle));
  const quoted = JSON.stringify(rule.text);
  const first = holding[0];
  const matchReasoning = first
    ? `${first.url} reads: ${JSON.stringify(firstLineHolding(first.text ?? '', needle))}`
    : `None of the ${readable.length} pages read holds ${quoted}.`;
  const containsAnswer = holding.map((result) => `${result.url} contains ${quoted}`).join('; ');
  const noneAnswer = readable.length === 0 ? 'No page could be read' : `No page contains ${quoted}`;
  if (rule.type === 'contains') {
    const met = holding.length > 0;
    return {
      claimedMet: met,
      answer: met ? containsAnswer : noneAnswer,
      reasoning: matchReasoning,
    };
  }
  const met = readable.length > 0 && holding.length === 0;
  const missingAnswer = readable
    .map((result) => `${result.url} does not contain ${quoted}`)
    .join('; ');
  return {
    claimedMet: met,
    answer: met ? missingAnswer : holding.length > 0 ? containsAnswer : noneAnswer,
    reasoning: matchReasoning,
  };
}

/** The first line holding `needle`, or the text's start when the match spans lines. */
function firstLineHolding(text: string, needle: string): string {
  const line = text.split('\n').find((candidate) => candidate.toLowerCase().includes(needle));
  return line ?? text.slice(0, 500);
}

function changeQuote(result: PageResult): string {
  const quote = (lines: string[]): string =>
    lines
      .slice(0, QUOTED_LINES)
      .map((line) => JSON.stringify(line))
      .join(', ');
  const parts = [
    ...(result.added.length > 0 ? [`added ${quote(result.added)}`] : []),
    ...(result.removed.length > 0 ? [`removed ${quote(result.removed)}`] : []),
  ];
  return `${result.url}: ${parts.join('; ')}.`;
}

function count(lines: number): string {
  return lines === 1 ? '1 line' : `${lines} lines`;
}
