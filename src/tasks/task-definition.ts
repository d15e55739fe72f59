import { HttpException } from '@nestjs/common';
import {
  resolveAlertPolicyUpdate,
  type AlertPolicy,
  type AlertPolicyLimits,
} from '../attention/alert-policy';
import { validatePageRule } from '../pages/rules/page-rule';
import { declaredValueNames } from '../pages/values/page-value-names';
import { valueRuleProblem } from '../pages/values/value-rules';
import { pageTargets } from '../pages/targets/page-targets.validator';
import type { PageRule, PageTarget } from '../pages/page.types';
import {
  OutputSchemaError,
  validateOutputSchema,
  type OutputSchema,
} from '../search/output-schema';
import { DEFAULT_TASK_NAME, type NotifyBehavior } from '../search/search.types';
import { EvidenceRuleError, validateEvidenceRule, type EvidenceRule } from './evidence-rule';
import { watchName, watchQuery } from './page-task-wording';

/** What a task asks and how it alerts: the fields a create sets and an update may change. */
export interface TaskDefinition {
  name: string;
  searchQuery: string;
  conditionDescription: string;
  notifyBehavior: NotifyBehavior;
  outputSchema: OutputSchema | null;
  evidence: EvidenceRule | null;
  pages: PageTarget[] | null;
  pageRule: PageRule | null;
  alertPolicy: AlertPolicy | null;
}

/**
 * The definition fields of a create or an update request, as field validation let them through:
 * the free-form ones (`output_schema` to `page_rule`) are read here. Left out, a field keeps the
 * task's value (its default on create); null clears a free-form one.
 */
export interface TaskDefinitionInput {
  name?: string;
  search_query?: string;
  condition_description?: string;
  notify_behavior?: NotifyBehavior;
  output_schema?: unknown;
  evidence?: unknown;
  alert_policy?: unknown;
  pages?: unknown;
  page_rule?: unknown;
}

/** The field a refusal is about; its `detail` is the 400's. */
export type TaskDefinitionRefusalCode =
  'output_schema' | 'evidence' | 'pages' | 'page_rule' | 'notify_behavior' | 'alert_policy';

export interface TaskDefinitionRefusal {
  code: TaskDefinitionRefusalCode;
  detail: string;
}

export type TaskDefinitionReading =
  | { definition: TaskDefinition; refusal?: never }
  | { definition?: never; refusal: TaskDefinitionRefusal };

export const ON_CHANGE_NEEDS_SCHEMA = 'notify_behavior on_change requires an output_schema';
export const PAGE_RULE_NEEDS_PAGES = 'Invalid page_rule: a page_rule needs pages';
export const NEW_ITEMS_RULE_NEEDS_ITEMS =
  'Invalid page_rule: type new_items needs a page with items (a feed page may carry items: {})';
export const PAGE_RULE_WITH_SCHEMA =
  'Invalid page_rule: output_schema is not allowed with a page_rule';
export const PAGE_RULE_WITH_ON_CHANGE =
  'Invalid page_rule: notify_behavior on_change is not allowed with a page_rule';
export const PAGE_VALUES_WITH_SCHEMA =
  'Invalid pages: values cannot be combined with output_schema';

/** A rule broken by the request: carries the refusal out of the reading. */
class Refused extends Error {
  constructor(readonly refusal: TaskDefinitionRefusal) {
    super(refusal.detail);
  }
}

/** Runs `read`; what it refuses (a 400 of its own or a rule error) is a refusal coded `code`. */
function refusing<T>(
  code: TaskDefinitionRefusalCode,
  read: () => T,
  ruleError?: new (message: string) => Error,
): T {
  try {
    return read();
  } catch (error) {
    if (ruleError && error instanceof ruleError)
      throw new Refused({ code, detail: `Invalid ${code}: ${error.message}` });
    if (error instanceof HttpException) throw new Refused({ code, detail: error.message });
    throw error;
  }
}

/**
 * A free-form field as the definition holds it: undefined when the request leaves it, null when
 * it clears it, else `read`'s reading.
 */
function readField<T>(
  code: TaskDefinitionRefusalCode,
  value: unknown,
  read: (value: unknown) => T,
  ruleError?: new (message: string) => Error,
): T | null | undefined {
  if (value === undefined || value === null) return value;
  return refusing(code, () => read(value), ruleError);
}

/**
 * The definition a request gives a task (docs/api.md, "Tasks"): on create (`current` null) from
 * the defaults, on update from the task as it is. Every rule between fields is here:
 * - without a `search_query`, a task with pages asks `Watch <first page URL>` and is named after
 *   that page (docs/pages.md, "Pages on a task");
 * - clearing `pages` clears the `page_rule`, which needs pages and allows neither an
 *   `output_schema` nor `on_change` (docs/pages.md, "Page rules") unless the pages read values,
 *   and a rule on a value names one the pages declare;
 * - page values and an `output_schema` are two sources of one task's values: not both
 *   (docs/pages.md, "Values read from pages");
 * - `on_change` compares values, so it needs an `output_schema` or page values;
 * - `alert_policy` is checked against the resulting `notify_behavior`, a kept one too
 *   (docs/attention.md, "Alert policy").
 * The first rule broken is the refusal. Pure: the hosts of `pages` are looked up by the caller.
 */
export function readTaskDefinition(
  input: TaskDefinitionInput,
  current: TaskDefinition | null,
  limits: AlertPolicyLimits,
): TaskDefinitionReading {
  try {
    return { definition: definitionOf(input, current, limits) };
  } catch (error) {
    if (error instanceof Refused) return { refusal: error.refusal };
    throw error;
  }
}

function definitionOf(
  input: TaskDefinitionInput,
  current: TaskDefinition | null,
  limits: AlertPolicyLimits,
): TaskDefinition {
  const outputSchema = readField(
    'output_schema',
    input.output_schema,
    validateOutputSchema,
    OutputSchemaError,
  );
  const evidence = readField('evidence', input.evidence, validateEvidenceRule, EvidenceRuleError);
  const pageRule = readField('page_rule', input.page_rule, validatePageRule);
  const pages = readField('pages', input.pages, pageTargets);
  const kept = current ?? createDefaults(pages ?? null);
  const searchQuery = input.search_query ?? kept.searchQuery;
  const definition: TaskDefinition = {
    name: input.name ?? kept.name,
    searchQuery,
    // On create, the condition defaults to the question asked.
    conditionDescription:
      input.condition_description ?? current?.conditionDescription ?? searchQuery,
    notifyBehavior: input.notify_behavior ?? kept.notifyBehavior,
    outputSchema: outputSchema === undefined ? kept.outputSchema : outputSchema,
    evidence: evidence === undefined ? kept.evidence : evidence,
    pages: pages === undefined ? kept.pages : pages,
    // Without pages a page rule has nothing to read: clearing them clears it.
    pageRule: pageRule === undefined ? (pages === null ? null : kept.pageRule) : pageRule,
    alertPolicy: kept.alertPolicy,
  };
  const pageValues = declaredValueNames(definition.pages);
  if (pageValues.length > 0 && definition.outputSchema !== null)
    throw new Refused({ code: 'pages', detail: PAGE_VALUES_WITH_SCHEMA });
  checkPageRule(definition, pageValues);
  if (
    definition.notifyBehavior === 'on_change' &&
    definition.outputSchema === null &&
    pageValues.length === 0
  )
    throw new Refused({ code: 'notify_behavior', detail: ON_CHANGE_NEEDS_SCHEMA });
  // A request that leaves the policy still has the kept one checked against the notify_behavior.
  definition.alertPolicy = refusing('alert_policy', () =>
    resolveAlertPolicyUpdate(
      input.alert_policy,
      definition.alertPolicy,
      definition.notifyBehavior,
      limits,
    ),
  );
  return definition;
}

/**
 * A new task's definition before its request is read. The field validation asks for a
 * `search_query` when there are no pages.
 */
function createDefaults(pages: PageTarget[] | null): TaskDefinition {
  return {
    name: pages === null ? DEFAULT_TASK_NAME : watchName(pages),
    searchQuery: pages === null ? '' : watchQuery(pages),
    conditionDescription: '',
    notifyBehavior: 'once',
    outputSchema: null,
    evidence: null,
    pages: null,
    pageRule: null,
    alertPolicy: null,
  };
}

/**
 * A page rule decides from the pages alone (docs/pages.md, "Page rules"): it needs pages (and
 * `new_items` a page with items), no model extracts values for `output_schema` to use, and
 * `on_change` has values to compare only when the pages read some. A rule on a value names one
 * the pages declare.
 */
function checkPageRule(definition: TaskDefinition, pageValues: readonly string[]): void {
  const rule = definition.pageRule;
  if (rule === null) return;
  const refuse = (detail: string) => new Refused({ code: 'page_rule', detail });
  if (definition.pages === null) throw refuse(PAGE_RULE_NEEDS_PAGES);
  if (rule.type === 'new_items' && !definition.pages.some((page) => page.items !== undefined))
    throw refuse(NEW_ITEMS_RULE_NEEDS_ITEMS);
  if (definition.outputSchema !== null) throw refuse(PAGE_RULE_WITH_SCHEMA);
  if (definition.notifyBehavior === 'on_change' && pageValues.length === 0)
    throw refuse(PAGE_RULE_WITH_ON_CHANGE);
  const problem = valueRuleProblem(rule, pageValues);
  if (problem !== null) throw refuse(`Invalid page_rule: ${problem}`);
}
