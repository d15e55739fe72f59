import { BadRequestException } from '@nestjs/common';
import type { PageResult, PageRule, PageValue, PageValueReading } from '../page.types';

/** A rule on a value a task's pages read (docs/pages.md, "Rules on values"). */
export type ValueRule = Extract<PageRule, { value: string }>;

const VALUE_RULE_TYPES: ReadonlySet<string> = new Set(['below', 'above', 'equals']);

export function isValueRule(rule: PageRule): rule is ValueRule {
  return VALUE_RULE_TYPES.has(rule.type);
}

function invalid(reason: string): BadRequestException {
  return new BadRequestException(`Invalid page_rule: ${reason}`);
}

/**
 * The shape of a rule on a value; whether the pages declare its value is the task's rule
 * (`valueRuleProblem`). 400 `Invalid page_rule: ...` otherwise.
 */
export function validateValueRule(
  type: ValueRule['type'],
  fields: Record<string, unknown>,
): ValueRule {
  const { value, than, to, ...rest } = fields;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw invalid(`unknown field ${unknown[0]}`);
  if (typeof value !== 'string' || value === '') {
    throw invalid(`value must name a value the task's pages read`);
  }
  if (type === 'equals') {
    if (than !== undefined) throw invalid('than is not allowed with type equals');
    if (to === undefined) throw invalid('to is required with type equals');
    if (typeof to === 'number' ? !Number.isFinite(to) : !['string', 'boolean'].includes(typeof to))
      throw invalid('to must be a string, a number or a boolean');
    return { type, value, to: to as string | number | boolean };
  }
  if (to !== undefined) throw invalid(`to is not allowed with type ${type}`);
  if (than === undefined) throw invalid(`than is required with type ${type}`);
  if (typeof than !== 'number' || !Number.isFinite(than)) {
    throw invalid('than must be a finite number');
  }
  return { type, value, than };
}

/** Why a rule does not fit the values the pages declare; null when it does, or is no value rule. */
export function valueRuleProblem(rule: PageRule, declared: readonly string[]): string | null {
  if (!isValueRule(rule) || declared.includes(rule.value)) return null;
  return `value ${rule.value} is not one of the values the task's pages declare`;
}

export interface ValueRuleVerdict {
  claimedMet: boolean;
  answer: string;
  reasoning: string;
  currentState: { rule: ValueRule['type']; met: boolean; values: Record<string, PageValue> };
}

/**
 * What a rule on a value makes of a check's pages, with no model: `below` and `above` are met by
 * a number strictly below or above `than`, `equals` by a value equal to `to` (strings trimmed and
 * compared case-insensitively). A null value meets no rule. The value is judged as it is, so a
 * first check can be met.
 */
export function evaluateValueRule(
  rule: ValueRule,
  results: readonly PageResult[],
): ValueRuleVerdict {
  const page = results.find((result) => result.values?.[rule.value] !== undefined);
  const reading: PageValueReading = page?.values?.[rule.value] ?? { error: 'not found' };
  const url = page?.url ?? results[0]?.url ?? '';
  const current = 'value' in reading ? reading.value : null;
  const met = current !== null && holds(rule, current);
  const state = { rule: rule.type, met, values: { [rule.value]: current } };
  if (!('value' in reading)) {
    return {
      claimedMet: false,
      answer: `${rule.value} could not be read (${url})`,
      reasoning: `${rule.value} could not be read at ${url}: ${reading.error}.`,
      currentState: state,
    };
  }
  return {
    claimedMet: met,
    answer: `${rule.value} is ${shown(current)}, ${met ? '' : 'not '}${comparison(rule)} (${url})`,
    reasoning: `${rule.value} was read from ${reading.source} at ${url}.`,
    currentState: state,
  };
}

function holds(rule: ValueRule, value: Exclude<PageValue, null>): boolean {
  if (rule.type === 'equals') {
    if (typeof value === 'string' && typeof rule.to === 'string') {
      return value.trim().toLowerCase() === rule.to.trim().toLowerCase();
    }
    return value === rule.to;
  }
  if (typeof value !== 'number') return false;
  return rule.type === 'below' ? value < rule.than : value > rule.than;
}

function comparison(rule: ValueRule): string {
  return rule.type === 'equals' ? `equal to ${shown(rule.to)}` : `${rule.type} ${rule.than}`;
}

/** A number or boolean as it is, a string quoted. */
function shown(value: PageValue): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
