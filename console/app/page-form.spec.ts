import { pageRow, pagesBody, pagesValuesOf, type PagesValues } from './page-form';

const NO_RULE: PagesValues = {
  rows: [],
  rule: 'none',
  ruleText: '',
  ruleValue: '',
  ruleOperand: '',
};

describe('pagesBody', () => {
  it('should send each page with a URL, its selector and headers only when set', () => {
    expect(
      pagesBody({
        rows: [
          pageRow({ url: ' https://example.com/a ', selector: ' #price ' }),
          pageRow({ url: '' }),
          pageRow({ url: 'https://example.com/b', selector: ' ', headers: { Cookie: 'x=1' } }),
        ],
        rule: 'contains',
        ruleText: 'sold out',
        ruleValue: '',
        ruleOperand: '',
      }),
    ).toEqual({
      pages: [
        { url: 'https://example.com/a', selector: '#price' },
        { url: 'https://example.com/b', headers: { Cookie: 'x=1' } },
      ],
      page_rule: { type: 'contains', text: 'sold out' },
    });
  });

  it('should send null for no pages and no rule, and no text with the changed rule', () => {
    expect(pagesBody({ ...NO_RULE, rows: [pageRow({ url: ' ' })], ruleText: 'x' })).toEqual({
      pages: null,
      page_rule: null,
    });
    expect(pagesBody({ ...NO_RULE, rule: 'changed', ruleText: 'x' }).page_rule).toEqual({
      type: 'changed',
    });
  });
});

describe('pagesBody with items', () => {
  it('should send items with their selector, an empty object for a feed, and the new_items rule', () => {
    const list = {
      ...pageRow({ url: 'https://example.com/jobs' }),
      items: true,
      itemsSelector: ' li ',
    };
    const feed = { ...pageRow({ url: 'https://example.com/feed' }), items: true };
    expect(pagesBody({ ...NO_RULE, rows: [list, feed], rule: 'new_items', ruleText: 'x' })).toEqual(
      {
        pages: [
          { url: 'https://example.com/jobs', items: { selector: 'li' } },
          { url: 'https://example.com/feed', items: {} },
        ],
        page_rule: { type: 'new_items' },
      },
    );
    expect(pageRow({ url: 'https://example.com/feed', items: {} })).toMatchObject({
      items: true,
      itemsSelector: '',
    });
  });
});

describe('pagesBody of browser pages', () => {
  it('should send render browser, and wait_for only with it', () => {
    const browser = {
      ...pageRow({ url: 'https://example.com/app' }),
      browser: true,
      waitFor: ' #app ',
    };
    const plain = { ...pageRow({ url: 'https://example.com/' }), waitFor: '#ignored' };
    expect(
      pagesBody({ ...NO_RULE, rows: [browser, plain], rule: 'none', ruleText: '' }).pages,
    ).toEqual([
      { url: 'https://example.com/app', render: 'browser', wait_for: '#app' },
      { url: 'https://example.com/' },
    ]);
    const stored = { url: 'https://example.com/app', render: 'browser' as const, wait_for: '#app' };
    expect(pagesBody(pagesValuesOf({ pages: [stored], page_rule: null })).pages).toEqual([stored]);
  });
});

describe('pagesValuesOf', () => {
  it('should fill the form from the task and round-trip to the same body', () => {
    const pages = [{ url: 'https://example.com/', selector: 'main', headers: { 'X-Token': 't' } }];
    const values = pagesValuesOf({
      pages,
      page_rule: { type: 'not_contains', text: 'Sold out' },
    });
    expect(values).toMatchObject({ rule: 'not_contains', ruleText: 'Sold out' });
    expect(pagesBody(values)).toEqual({
      pages,
      page_rule: { type: 'not_contains', text: 'Sold out' },
    });
  });

  it('should start with no pages and no rule for a new task', () => {
    expect(pagesValuesOf(null)).toEqual(NO_RULE);
  });
});

describe('page values and rules on them', () => {
  it('should send each value with its selector and path only where they apply', () => {
    const values = pagesValuesOf({
      pages: [
        {
          url: 'https://shop.example/p',
          values: [
            { name: 'price', from: 'price' },
            { name: 'title', from: 'text', selector: 'h1' },
          ],
        },
        { url: 'https://api.example/v', values: [{ name: 'v', from: 'json', path: '$.v' }] },
      ],
      page_rule: { type: 'below', value: 'price', than: 100 },
    });
    expect(values).toMatchObject({ rule: 'below', ruleValue: 'price', ruleOperand: '100' });
    expect(pagesBody(values)).toEqual({
      pages: [
        {
          url: 'https://shop.example/p',
          values: [
            { name: 'price', from: 'price' },
            { name: 'title', from: 'text', selector: 'h1' },
          ],
        },
        { url: 'https://api.example/v', values: [{ name: 'v', from: 'json', path: '$.v' }] },
      ],
      page_rule: { type: 'below', value: 'price', than: 100 },
    });
  });

  it.each([
    ['price', '45', 45],
    ['v', 'true', true],
    ['v', '2.1', 2.1],
    ['v', 'beta', 'beta'],
    ['title', '2.1', '2.1'],
  ])('should compare %s with %j read as %j', (name, typed, to) => {
    const values = pagesValuesOf({
      pages: [
        {
          url: 'https://shop.example/p',
          values: [
            { name: 'price', from: 'price' },
            { name: 'title', from: 'text', selector: 'h1' },
            { name: 'v', from: 'json', path: '$.v' },
          ],
        },
      ],
      page_rule: null,
    });
    const body = pagesBody({ ...values, rule: 'equals', ruleValue: name, ruleOperand: typed });
    expect(body.page_rule).toEqual({ type: 'equals', value: name, to });
  });
});
