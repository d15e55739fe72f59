import { pageRow, pagesBody, pagesValuesOf } from './page-form';

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
    expect(pagesBody({ rows: [pageRow({ url: ' ' })], rule: 'none', ruleText: 'x' })).toEqual({
      pages: null,
      page_rule: null,
    });
    expect(pagesBody({ rows: [], rule: 'changed', ruleText: 'x' }).page_rule).toEqual({
      type: 'changed',
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
    expect(pagesBody({ rows: [browser, plain], rule: 'none', ruleText: '' }).pages).toEqual([
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
    expect(pagesValuesOf(null)).toEqual({ rows: [], rule: 'none', ruleText: '' });
  });
});
