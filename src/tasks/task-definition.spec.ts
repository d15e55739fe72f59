import { DEFAULT_TASK_NAME } from '../search/search.types';
import {
  ON_CHANGE_NEEDS_SCHEMA,
  PAGE_RULE_NEEDS_PAGES,
  PAGE_RULE_WITH_ON_CHANGE,
  PAGE_RULE_WITH_SCHEMA,
  PAGE_VALUES_WITH_SCHEMA,
  readTaskDefinition,
  type TaskDefinition,
  type TaskDefinitionInput,
} from './task-definition';

const limits = { alertMinCooldownMs: 60_000, alertMinRepeatMs: 15 * 60_000 };
const schema = { type: 'object', properties: { price: { type: 'number' } } };
const page = { url: 'https://shop.example/item/42?colour=red' };

const read = (input: TaskDefinitionInput, current: TaskDefinition | null = null) =>
  readTaskDefinition(input, current, limits);

const defined = (input: TaskDefinitionInput, current: TaskDefinition | null = null) => {
  const reading = read(input, current);
  if (reading.refusal) throw new Error(`refused: ${reading.refusal.detail}`);
  return reading.definition;
};

const current: TaskDefinition = {
  name: 'Item 42',
  searchQuery: 'Is item 42 back in stock?',
  conditionDescription: 'Item 42 can be ordered',
  notifyBehavior: 'on_change',
  outputSchema: { type: 'object', properties: { price: { type: 'number' } } },
  evidence: null,
  pages: [page],
  pageRule: null,
  alertPolicy: { cooldown: '1h', repeat_every: null, repeat_max: 10 },
};

describe('readTaskDefinition on create', () => {
  it('should give a search task its defaults', () => {
    expect(defined({ search_query: 'Is item 42 back in stock?' })).toEqual({
      name: DEFAULT_TASK_NAME,
      searchQuery: 'Is item 42 back in stock?',
      conditionDescription: 'Is item 42 back in stock?',
      notifyBehavior: 'once',
      outputSchema: null,
      evidence: null,
      pages: null,
      pageRule: null,
      alertPolicy: null,
    });
  });

  it('should word the question and the name of a page task sent without them', () => {
    expect(defined({ pages: [page] })).toMatchObject({
      name: 'shop.example/item/42',
      searchQuery: `Watch ${page.url}`,
      conditionDescription: `Watch ${page.url}`,
      pages: [page],
    });
    expect(defined({ pages: [page], search_query: 'Is item 42 red?' })).toMatchObject({
      name: 'shop.example/item/42',
      searchQuery: 'Is item 42 red?',
    });
  });

  it.each([
    [{ search_query: 'Has it changed?', page_rule: { type: 'changed' } }, PAGE_RULE_NEEDS_PAGES],
    [
      { pages: [page], page_rule: { type: 'changed' }, output_schema: schema },
      PAGE_RULE_WITH_SCHEMA,
    ],
    [
      { pages: [page], page_rule: { type: 'changed' }, notify_behavior: 'on_change' },
      PAGE_RULE_WITH_ON_CHANGE,
    ],
  ] as const)('should refuse a page_rule that does not fit (%j)', (input, detail) => {
    expect(read(input)).toEqual({ refusal: { code: 'page_rule', detail } });
  });

  describe('with page values', () => {
    const priced = { ...page, values: [{ name: 'price', from: 'price' }] };

    it('should refuse them with an output_schema', () => {
      expect(read({ pages: [priced], output_schema: schema })).toEqual({
        refusal: { code: 'pages', detail: PAGE_VALUES_WITH_SCHEMA },
      });
    });

    it('should allow on_change with or without a page_rule', () => {
      expect(defined({ pages: [priced], notify_behavior: 'on_change' }).pageRule).toBeNull();
      expect(
        defined({
          pages: [priced],
          notify_behavior: 'on_change',
          page_rule: { type: 'below', value: 'price', than: 100 },
        }).pageRule,
      ).toEqual({ type: 'below', value: 'price', than: 100 });
    });

    it('should refuse a rule on a value the pages do not declare, an update dropping it too', () => {
      const detail =
        "Invalid page_rule: value cost is not one of the values the task's pages declare";
      expect(
        read({ pages: [priced], page_rule: { type: 'above', value: 'cost', than: 1 } }),
      ).toEqual({ refusal: { code: 'page_rule', detail } });
      const ruled = defined({
        pages: [priced],
        page_rule: { type: 'equals', value: 'price', to: 5 },
      });
      expect(read({ pages: [page] }, ruled)).toEqual({
        refusal: {
          code: 'page_rule',
          detail:
            "Invalid page_rule: value price is not one of the values the task's pages declare",
        },
      });
    });
  });

  it('should refuse on_change without an output_schema', () => {
    expect(read({ search_query: 'Is item 42 cheaper?', notify_behavior: 'on_change' })).toEqual({
      refusal: { code: 'notify_behavior', detail: ON_CHANGE_NEEDS_SCHEMA },
    });
  });

  it('should hold alert_policy to its bounds and to the notify_behavior', () => {
    const sent = (alert_policy: unknown, notify_behavior?: 'always') =>
      read({ search_query: 'Is item 42 cheaper?', alert_policy, notify_behavior });
    expect(sent({ cooldown: '30s' }).refusal).toEqual({
      code: 'alert_policy',
      detail: 'Invalid alert_policy: cooldown must be at least 1m',
    });
    expect(sent({ cooldown: '31d' }).refusal?.detail).toBe(
      'Invalid alert_policy: cooldown must be at most 30d',
    );
    expect(sent({ repeat_every: '1h' }).refusal?.detail).toBe(
      "Invalid alert_policy: repeat_every needs notify_behavior 'always'",
    );
    expect(sent({ repeat_every: '1h', repeat_max: 3 }, 'always').definition?.alertPolicy).toEqual({
      cooldown: null,
      repeat_every: '1h',
      repeat_max: 3,
    });
  });

  it('should refuse the first broken field, in the order the fields are read', () => {
    expect(read({ output_schema: 'price', pages: 'https://shop.example/' }).refusal?.code).toBe(
      'output_schema',
    );
    expect(read({ pages: [], page_rule: { type: 'changed' } }).refusal).toEqual({
      code: 'pages',
      detail: 'Invalid pages: must be a list of 1 to 10 pages',
    });
  });
});

describe('readTaskDefinition on update', () => {
  it('should keep what the request leaves and change what it sends', () => {
    expect(defined({ name: 'Item 42, red' }, current)).toEqual({
      ...current,
      name: 'Item 42, red',
    });
    expect(defined({ search_query: 'Is item 42 back?' }, current)).toMatchObject({
      searchQuery: 'Is item 42 back?',
      conditionDescription: current.conditionDescription,
    });
  });

  it('should check the merged task, not only the fields sent', () => {
    expect(read({ output_schema: null }, current).refusal?.detail).toBe(ON_CHANGE_NEEDS_SCHEMA);
    expect(read({ page_rule: { type: 'changed' } }, current).refusal?.detail).toBe(
      PAGE_RULE_WITH_SCHEMA,
    );
    // The kept alert policy is checked again when the notify_behavior changes.
    const repeating = { ...current, notifyBehavior: 'always' as const };
    repeating.alertPolicy = { cooldown: null, repeat_every: '1h', repeat_max: 10 };
    expect(read({ notify_behavior: 'once' }, repeating).refusal?.code).toBe('alert_policy');
  });

  it('should clear the page_rule with the pages', () => {
    const ruled = { ...current, notifyBehavior: 'once' as const, outputSchema: null };
    ruled.pageRule = { type: 'contains', text: 'In stock' };
    expect(defined({ pages: null }, ruled)).toMatchObject({ pages: null, pageRule: null });
    expect(read({ pages: null, page_rule: { type: 'changed' } }, ruled).refusal?.detail).toBe(
      PAGE_RULE_NEEDS_PAGES,
    );
  });

  it('should clear the alert_policy sent as null and keep it when left out', () => {
    expect(defined({ alert_policy: null }, current).alertPolicy).toBeNull();
    expect(defined({}, current).alertPolicy).toEqual(current.alertPolicy);
  });
});
