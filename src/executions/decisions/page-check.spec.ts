import type { PageResult } from '../../pages/page.types';
import {
  decidePageCheck,
  readsUnchangedTexts,
  type EarlierVerdict,
  type PageCheckInput,
} from './page-check';

function page(url: string, overrides: Partial<PageResult> = {}): PageResult {
  return {
    url,
    render: 'http',
    finalUrl: url,
    status: 'same',
    httpStatus: 200,
    title: 'A page',
    error: null,
    added: [],
    removed: [],
    fetchedAt: new Date(0),
    text: 'Version 1.0',
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
const failed = (url: string, error: string) =>
  page(url, { status: 'error', error, title: null, text: null, contentHash: null });

const earlier: EarlierVerdict = {
  verdictExecutionId: 'model-run',
  claimedMet: true,
  conditionMet: false,
  answer: 'Version 1.0 is out',
  reasoning: 'The page says so',
  values: { version: '1.0' },
  currentState: { version: '1.0' },
  awaitingConfirmation: false,
};

function decide(overrides: Partial<PageCheckInput>) {
  return decidePageCheck({
    pages: [page('https://a.example/')],
    rule: null,
    valuesOnly: false,
    earlier,
    promptMaxChars: 1_000,
    ...overrides,
  });
}

describe('decidePageCheck', () => {
  it('should fail the check naming every page when every page is an error', () => {
    expect(
      decide({
        pages: [
          failed('https://a.example/', 'HTTP 503'),
          failed('https://b.example/', 'timed out'),
        ],
      }),
    ).toEqual({
      kind: 'failed',
      message: 'All pages failed: https://a.example/: HTTP 503; https://b.example/: timed out',
      code: 'ALL_PAGES_FAILED',
    });
  });

  it('should answer by the page rule without a model, the pages read being the sources', () => {
    const decision = decide({
      pages: [
        page('https://a.example:8080/path', { title: null, text: 'Release 2.0\nOther' }),
        failed('https://b.example/', 'HTTP 404'),
      ],
      rule: { type: 'contains', text: '2.0' },
    });
    expect(decision).toEqual({
      kind: 'answered',
      answer: {
        conditionMet: true,
        answer: 'https://a.example:8080/path contains "2.0"',
        reasoning: 'https://a.example:8080/path reads: "Release 2.0"',
        currentState: {
          rule: 'contains',
          met: true,
          content_hashes: { 'https://a.example:8080/path': 'hash-of-https://a.example:8080/path' },
        },
        nextCheckAt: null,
        groundingSources: [{ uri: 'https://a.example:8080/path', title: 'a.example' }],
        values: null,
        usage: null,
      },
    });
  });

  it('should answer by the page rule even when the pages are unchanged', () => {
    const decision = decide({ rule: { type: 'changed' } });
    expect(decision.kind === 'answered' && decision.answer.carriedFrom).toBeUndefined();
  });

  it('should carry the earlier verdict when every page read is the same', () => {
    const decision = decide({
      pages: [page('https://a.example/'), failed('https://b.example/', 'timed out')],
    });
    expect(decision).toEqual({
      kind: 'answered',
      answer: {
        conditionMet: true,
        answer: 'Version 1.0 is out',
        reasoning: 'The page says so',
        currentState: { version: '1.0' },
        nextCheckAt: null,
        groundingSources: [{ uri: 'https://a.example/', title: 'A page' }],
        values: { version: '1.0' },
        usage: null,
        carriedFrom: { verdictExecutionId: 'model-run', conditionMet: false },
      },
    });
  });

  it.each([
    ['a page changed', { pages: [page('https://a.example/', { status: 'changed' })] }],
    ['a page is new', { pages: [page('https://a.example/', { status: 'new' })] }],
    ['there is no earlier verdict', { earlier: null }],
    [
      'the earlier met condition awaits confirmation',
      { earlier: { ...earlier, awaitingConfirmation: true } },
    ],
  ])('should call the model when %s', (_case, overrides: Partial<PageCheckInput>) => {
    expect(decide(overrides).kind).toBe('model');
  });

  it('should show the model the pages read, their text cut, and make them the sources', () => {
    const decision = decide({
      pages: [
        page('https://a.example/', {
          status: 'changed',
          finalUrl: 'https://a.example/final',
          text: 'x'.repeat(1_200),
          added: ['x'],
          removed: ['y'],
        }),
        failed('https://b.example/', 'no text'),
      ],
    });
    expect(decision).toEqual({
      kind: 'model',
      pages: [
        {
          url: 'https://a.example/final',
          status: 'changed',
          title: 'A page',
          text: `${'x'.repeat(1_000)}\n[… 200 more characters cut]`,
          added: ['x'],
          removed: ['y'],
        },
      ],
      sources: [{ uri: 'https://a.example/final', title: 'A page' }],
      values: null,
    });
  });

  describe('with page values', () => {
    const priced = (value: number | null, status: PageResult['status'] = 'same') =>
      page('https://shop.example/p', {
        status,
        values:
          value === null
            ? { price: { error: 'not found' } }
            : { price: { value, source: 'JSON-LD offers.price' } },
      });

    it('should fail the check when no declared value could be read from pages that were read', () => {
      expect(decide({ pages: [priced(null)] })).toEqual({
        kind: 'failed',
        message: 'No value could be read: price: not found',
        code: 'NO_VALUE_READ',
      });
    });

    it('should answer a rule on a value with the values read, met on a first check', () => {
      const decision = decide({
        pages: [priced(89.99, 'new')],
        rule: { type: 'below', value: 'price', than: 100 },
      });
      expect(decision).toMatchObject({
        kind: 'answered',
        answer: {
          conditionMet: true,
          answer: 'price is 89.99, below 100 (https://shop.example/p)',
          reasoning: 'price was read from JSON-LD offers.price at https://shop.example/p.',
          currentState: { rule: 'below', met: true, values: { price: 89.99 } },
          values: { price: 89.99 },
          usage: null,
        },
      });
    });

    it('should judge nothing and call no model when the task only reports changes', () => {
      const decision = decide({ pages: [priced(12, 'changed')], valuesOnly: true });
      expect(decision).toMatchObject({
        kind: 'answered',
        answer: { conditionMet: false, values: { price: 12 }, usage: null },
      });
    });

    it('should give the model the pages with their values, and keep them for the execution', () => {
      const decision = decide({ pages: [priced(12, 'changed')] });
      expect(decision).toMatchObject({
        kind: 'model',
        pages: [{ url: 'https://shop.example/p', values: { price: 12 } }],
        values: { price: 12 },
      });
    });
  });
});

describe('readsUnchangedTexts', () => {
  const reads = (overrides: Partial<PageCheckInput>) =>
    readsUnchangedTexts({
      pages: [page('https://a.example/'), page('https://b.example/')],
      rule: null,
      valuesOnly: false,
      earlier,
      ...overrides,
    });

  it('should read them for a rule on the text only', () => {
    expect(
      [
        { type: 'contains', text: '1.0' },
        { type: 'not_contains', text: '1.0' },
        { type: 'changed' },
        { type: 'new_items' },
        { type: 'below', value: 'price', than: 10 },
      ].map((rule) => reads({ rule: rule as PageCheckInput['rule'] })),
    ).toEqual([true, true, false, false, false]);
  });

  it('should read them for a model call, and not when the earlier verdict is carried', () => {
    const changed = page('https://b.example/', { status: 'changed', added: ['Version 2.0'] });
    const failing = failed('https://b.example/', 'timed out');
    expect([
      reads({}),
      reads({ pages: [page('https://a.example/'), failing] }),
      reads({ pages: [page('https://a.example/'), changed] }),
      reads({ earlier: null }),
      reads({ earlier: { ...earlier, awaitingConfirmation: true } }),
      reads({ valuesOnly: true, pages: [page('https://a.example/'), changed] }),
    ]).toEqual([false, false, true, true, true, false]);
  });
});
