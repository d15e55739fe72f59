import type { PageResult, PageValueReadings } from '../page.types';
import { evaluateValueRule, validateValueRule, type ValueRule } from './value-rules';

function page(values: PageValueReadings): PageResult {
  return {
    url: 'https://shop.example/p',
    render: 'http',
    finalUrl: 'https://shop.example/p',
    status: 'same',
    httpStatus: 200,
    title: 'P',
    error: null,
    added: [],
    removed: [],
    fetchedAt: new Date(0),
    text: 'P',
    contentHash: 'h',
    etag: null,
    lastModified: null,
    bodyHash: null,
    newItems: null,
    newItemKeys: [],
    keysToRemember: [],
    values,
  };
}

describe('evaluateValueRule', () => {
  const read = (value: string | number | boolean | null) =>
    page({ v: { value, source: 'selector .v: "x"' } });

  it.each<[ValueRule, string | number | boolean | null, boolean]>([
    [{ type: 'below', value: 'v', than: 100 }, 99.5, true],
    [{ type: 'below', value: 'v', than: 100 }, 100, false],
    [{ type: 'above', value: 'v', than: 100 }, 100.01, true],
    [{ type: 'above', value: 'v', than: 100 }, '200', false],
    [{ type: 'equals', value: 'v', to: 'In_Stock' }, ' in_stock ', true],
    [{ type: 'equals', value: 'v', to: 2 }, 2, true],
    [{ type: 'equals', value: 'v', to: true }, true, true],
    [{ type: 'equals', value: 'v', to: '2' }, 2, false],
    [{ type: 'below', value: 'v', than: 100 }, null, false],
  ])('%j of %j is met: %p', (rule, value, met) => {
    expect(evaluateValueRule(rule, [read(value)]).claimedMet).toBe(met);
  });

  it('should name the value, its reading and the page, and where it was read', () => {
    expect(evaluateValueRule({ type: 'equals', value: 'v', to: 'x' }, [read('y')])).toEqual({
      claimedMet: false,
      answer: 'v is "y", not equal to "x" (https://shop.example/p)',
      reasoning: 'v was read from selector .v: "x" at https://shop.example/p.',
      currentState: { rule: 'equals', met: false, values: { v: 'y' } },
    });
  });

  it('should not meet a rule on a value that could not be read, and say why', () => {
    const verdict = evaluateValueRule({ type: 'above', value: 'v', than: 1 }, [
      page({ v: { error: 'page error' } }),
    ]);
    expect(verdict).toMatchObject({
      claimedMet: false,
      answer: 'v could not be read (https://shop.example/p)',
      reasoning: 'v could not be read at https://shop.example/p: page error.',
      currentState: { rule: 'above', met: false, values: { v: null } },
    });
  });
});

describe('validateValueRule', () => {
  it.each([
    ['below', { value: 'v', than: Infinity }, 'Invalid page_rule: than must be a finite number'],
    [
      'below',
      { value: 'v', than: 1, to: 2 },
      'Invalid page_rule: to is not allowed with type below',
    ],
    [
      'equals',
      { value: 'v', to: 1, than: 2 },
      'Invalid page_rule: than is not allowed with type equals',
    ],
    [
      'equals',
      { value: 'v', to: null },
      'Invalid page_rule: to must be a string, a number or a boolean',
    ],
    ['above', { than: 1 }, "Invalid page_rule: value must name a value the task's pages read"],
    ['above', { value: 'v', than: 1, extra: 1 }, 'Invalid page_rule: unknown field extra'],
  ] as const)('should refuse %s %j', (type, fields, message) => {
    expect(() => validateValueRule(type, fields)).toThrow(message);
  });
});
