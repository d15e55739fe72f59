import type { PageResult } from '../page.types';
import { evaluatePageRule, validatePageRule, verdictNeedsModel } from './page-rule';

function result(url: string, overrides: Partial<PageResult>): PageResult {
  return {
    url,
    render: 'http',
    finalUrl: url,
    status: 'same',
    httpStatus: 200,
    title: null,
    error: null,
    added: [],
    removed: [],
    fetchedAt: new Date(0),
    text: 'text',
    contentHash: `hash-of-${url}`,
    etag: null,
    lastModified: null,
    bodyHash: null,
    newItems: null,
    newItemKeys: [],
    keysToRemember: [],
    ...overrides,
  };
}
const failed = (url: string) =>
  result(url, { status: 'error', error: 'timed out', text: null, contentHash: null });

describe('verdictNeedsModel', () => {
  const priced = [
    { url: 'https://shop.example/', values: [{ name: 'price', from: 'price' as const }] },
  ];
  it.each([
    ['a search task', { pageRule: null, pages: null, notifyBehavior: 'once' }, true],
    [
      'a page rule',
      { pageRule: { type: 'changed' as const }, pages: priced, notifyBehavior: 'once' },
      false,
    ],
    [
      'page values judged by a model',
      { pageRule: null, pages: priced, notifyBehavior: 'always' },
      true,
    ],
    [
      'page values reported on change',
      { pageRule: null, pages: priced, notifyBehavior: 'on_change' },
      false,
    ],
    [
      'on_change without page values',
      { pageRule: null, pages: [{ url: 'https://shop.example/' }], notifyBehavior: 'on_change' },
      true,
    ],
  ])('%s: %p', (_case, task, expected) => {
    expect(verdictNeedsModel(task)).toBe(expected);
  });
});

describe('validatePageRule', () => {
  it('should read rules on values', () => {
    expect(validatePageRule({ type: 'above', value: 'price', than: 3 })).toEqual({
      type: 'above',
      value: 'price',
      than: 3,
    });
    expect(validatePageRule({ type: 'equals', value: 'stock', to: 'in_stock' })).toEqual({
      type: 'equals',
      value: 'stock',
      to: 'in_stock',
    });
  });

  it('should accept the three types', () => {
    expect(validatePageRule({ type: 'changed' })).toEqual({ type: 'changed' });
    expect(validatePageRule({ type: 'not_contains', text: '2.0' })).toEqual({
      type: 'not_contains',
      text: '2.0',
    });
  });

  it.each([
    [null, 'must be an object with a type'],
    [
      { type: 'regex', text: 'a' },
      'type must be changed, new_items, contains, not_contains, below, above or equals',
    ],
    [{ type: 'contains' }, 'text must be 1 to 200 characters'],
    [{ type: 'contains', text: 'x'.repeat(201) }, 'text must be 1 to 200 characters'],
    [{ type: 'changed', text: 'a' }, 'text is not allowed with type changed'],
    [{ type: 'changed', when: 1 }, 'unknown field when'],
  ])('should refuse %j', (value, reason) => {
    expect(() => validatePageRule(value)).toThrow(`Invalid page_rule: ${reason}`);
  });
});

describe('evaluatePageRule', () => {
  it('should meet changed when a page changed, naming its lines, and not on a first fetch', () => {
    const changed = result('https://a.example/', {
      status: 'changed',
      added: ['v2', 'v3', 'v4'],
      removed: ['v1'],
    });
    const verdict = evaluatePageRule({ type: 'changed' }, [changed, failed('https://b.example/')]);
    expect(verdict).toEqual({
      claimedMet: true,
      answer: 'https://a.example/ changed: 3 lines added, 1 removed',
      reasoning: 'https://a.example/: added "v2", "v3", "v4"; removed "v1".',
      currentState: {
        rule: 'changed',
        met: true,
        content_hashes: { 'https://a.example/': 'hash-of-https://a.example/' },
      },
    });
    const baseline = evaluatePageRule({ type: 'changed' }, [
      result('https://a.example/', { status: 'new' }),
    ]);
    expect([baseline.claimedMet, baseline.answer]).toEqual([false, 'No page changed']);
  });

  it('should meet contains case-insensitively, quoting the first matching line', () => {
    const page = result('https://a.example/log', {
      text: 'Changelog\nRelease 2.0 is out\n2.0 again',
    });
    const verdict = evaluatePageRule({ type: 'contains', text: 'RELEASE 2.0' }, [page]);
    expect(verdict).toMatchObject({
      claimedMet: true,
      answer: 'https://a.example/log contains "RELEASE 2.0"',
      reasoning: 'https://a.example/log reads: "Release 2.0 is out"',
    });
  });

  it('should meet not_contains only when some page was read and none holds the text', () => {
    const rule = { type: 'not_contains' as const, text: 'sold out' };
    const read = evaluatePageRule(rule, [
      result('https://a.example/', {}),
      failed('https://b.example/'),
    ]);
    const none = evaluatePageRule(rule, [failed('https://b.example/')]);
    const holding = evaluatePageRule(rule, [result('https://a.example/', { text: 'Sold out' })]);
    expect([read.claimedMet, read.answer]).toEqual([
      true,
      'https://a.example/ does not contain "sold out"',
    ]);
    expect([none.claimedMet, none.answer]).toEqual([false, 'No page could be read']);
    expect([holding.claimedMet, holding.answer]).toEqual([
      false,
      'https://a.example/ contains "sold out"',
    ]);
  });
});
