import { BadRequestException } from '@nestjs/common';
import { OutboundHttpClient } from '../../common/outbound/outbound-http.client';
import { pageTargets, PageTargetsValidator } from './page-targets.validator';

describe('pageTargets', () => {
  it('should keep url, selector and headers, the URL as WHATWG writes it', () => {
    expect(
      pageTargets([
        { url: 'HTTPS://Example.com:443/a/../b' },
        { url: 'http://example.com/x', selector: 'main .price', headers: { Cookie: 'a=1' } },
      ]),
    ).toEqual([
      { url: 'https://example.com/b' },
      { url: 'http://example.com/x', selector: 'main .price', headers: { Cookie: 'a=1' } },
    ]);
  });

  it.each([
    [[], 'must be a list of 1 to 10 pages'],
    [
      Array.from({ length: 11 }, (_, index) => ({ url: `https://e.example/${index}` })),
      'must be a list of 1 to 10 pages',
    ],
    [
      [{ url: 'https://e.example/' }, { url: 'https://E.example:443/' }],
      'https://e.example/ is listed twice',
    ],
    [[{ url: 'ftp://e.example/' }], 'pages[0].url must be an http or https URL'],
    [
      [{ url: `https://e.example/${'a'.repeat(2048)}` }],
      'pages[0].url must be an http or https URL of at most 2048 characters',
    ],
    [
      [{ url: 'https://user:pw@e.example/' }],
      'pages[0].url must not contain credentials; use headers instead',
    ],
    [
      [{ url: 'https://e.example/', selector: 'a'.repeat(201) }],
      'pages[0].selector: must be a CSS selector of 1 to 200 characters',
    ],
    [
      [{ url: 'https://e.example/', headers: { Host: 'x' } }],
      "pages[0].headers: header 'Host' is not allowed",
    ],
    [
      [{ url: 'https://e.example/', headers: { 'Transfer-Encoding': 'x' } }],
      "pages[0].headers: header 'Transfer-Encoding' is not allowed",
    ],
    [
      [{ url: 'https://e.example/', headers: { 'content-length': '1' } }],
      "pages[0].headers: header 'content-length' is not allowed",
    ],
    [
      [{ url: 'https://e.example/', headers: { Connection: 'close' } }],
      "pages[0].headers: header 'Connection' is not allowed",
    ],
    [
      [{ url: 'https://e.example/', headers: { 'bad name': 'x' } }],
      "pages[0].headers: header name 'bad name' is not valid",
    ],
    [
      [
        {
          url: 'https://e.example/',
          headers: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`x-${i}`, 'v'])),
        },
      ],
      'pages[0].headers may hold at most 10 headers',
    ],
    [[{ url: 'https://e.example/', method: 'POST' }], 'pages[0] has an unknown field method'],
    [
      [{ url: 'https://e.example/', items: [] }],
      'pages[0].items must be an object with an optional selector',
    ],
    [
      [{ url: 'https://e.example/', items: { limit: 5 } }],
      'pages[0].items has an unknown field limit',
    ],
    [
      [{ url: 'https://e.example/', selector: 'main', items: {} }],
      'pages[0].items cannot be combined with selector; use items.selector',
    ],
    [
      [{ url: 'https://e.example/', items: { selector: '' } }],
      'pages[0].items.selector: must be a CSS selector of 1 to 200 characters',
    ],
    [
      [{ url: 'https://e.example/', items: { selector: 'li:has(a)' } }],
      'pages[0].items.selector: :has is not supported; use type, class, id and attribute selectors, combinators, :first-child, :last-child, :nth-child() and :not()',
    ],
  ])('should refuse %j', (value, reason) => {
    expect(() => pageTargets(value)).toThrow(`Invalid pages: ${reason}`);
  });

  it('should keep items, with or without a selector', () => {
    expect(
      pageTargets([
        { url: 'https://e.example/feed', items: {} },
        { url: 'https://e.example/jobs', items: { selector: 'li.job' }, selector: null },
      ]),
    ).toEqual([
      { url: 'https://e.example/feed', items: {} },
      { url: 'https://e.example/jobs', items: { selector: 'li.job' } },
    ]);
  });

  it.each([
    ['div#main > ul.items li[data-id^="4"] + li ~ li:not(.sold)'],
    ['*:first-child, p:last-child, li:nth-child(2n+1), a[href$=".PDF" i], :not(:nth-child(odd))'],
    ['[lang|=en], [class~=a], [title*=b], [id=x s], :not([hidden]), :not(li), :not(:last-child)'],
    [Array.from({ length: 10 }, (_, index) => `h${(index % 6) + 1}`).join(', ')],
  ])('should keep the selector %s', (selector) => {
    expect(pageTargets([{ url: 'https://e.example/', selector }])).toEqual([
      { url: 'https://e.example/', selector },
    ]);
  });

  const SUPPORTED =
    'is not supported; use type, class, id and attribute selectors, combinators, :first-child, ' +
    ':last-child, :nth-child() and :not()';
  const NOT =
    ':not() takes one simple selector: a type, class, id or attribute selector, :first-child, :last-child or :nth-child()';
  it.each([
    ['div:has(> p)', `:has ${SUPPORTED}`],
    ['p:contains("price")', `:contains ${SUPPORTED}`],
    ['li:nth-last-child(2)', `:nth-last-child ${SUPPORTED}`],
    ['ul li:first-of-type', `:first-of-type ${SUPPORTED}`],
    ['li:nth-of-type(2)', `:nth-of-type ${SUPPORTED}`],
    [':is(h1, h2)', `:is ${SUPPORTED}`],
    [':where(p)', `:where ${SUPPORTED}`],
    [':root > body', `:root ${SUPPORTED}`],
    ['p:empty', `:empty ${SUPPORTED}`],
    ['a::before', `::before ${SUPPORTED}`],
    ['li < ul', `the combinator < ${SUPPORTED}`],
    ['svg|rect', `the namespace svg| ${SUPPORTED}`],
    ['li:not(.a.b)', NOT],
    ['li:not(.a, .b)', NOT],
    ['li:not(ul li)', NOT],
    ['li:not(:not(.a))', NOT],
    ['li:not(:has(a))', `:has ${SUPPORTED}`],
    ['li:nth-child(2 of .a)', ':nth-child() takes an+b, odd or even'],
    ['li:nth-child', ':nth-child() takes an+b, odd or even'],
    ['li:first-child(2)', ':first-child takes no argument'],
    ['> li', 'must not start or end with a combinator'],
    ['div[', 'not a valid CSS selector'],
    ['a,,b', 'not a valid CSS selector'],
    [
      Array.from({ length: 11 }, (_, index) => `p.c${index}`).join(','),
      'at most 10 selectors in a list',
    ],
  ])('should refuse the selector %s', (selector, reason) => {
    const pages = [{ url: 'https://e.example/a' }, { url: 'https://e.example/b', selector }];
    expect(() => pageTargets(pages)).toThrow(
      new BadRequestException(`Invalid pages: pages[1].selector: ${reason}`),
    );
  });
});

describe('PageTargetsValidator', () => {
  const guarded = new OutboundHttpClient({ allowPrivateNetworks: false, dnsServers: [] });
  const open = new OutboundHttpClient({ allowPrivateNetworks: true, dnsServers: [] });
  afterAll(() => [guarded, open].forEach((client) => client.onApplicationShutdown()));
  const chromium = {
    wsEndpoint: null,
    chromiumPath: '/usr/bin/chromium',
    chrtPath: null,
    pagesAtOnce: 2,
    proxyHost: '127.0.0.1',
  };
  const noBrowser = { ...chromium, chromiumPath: null };

  it('should refuse a private address unless private networks are allowed', async () => {
    const pages = [{ url: 'http://93.184.216.34/' }, { url: 'http://127.0.0.1:8080/' }];
    await expect(new PageTargetsValidator(guarded, chromium).checkHosts(pages)).rejects.toThrow(
      'Invalid pages: url 127.0.0.1 resolves to a private or reserved address ' +
        '(private and local addresses are refused; set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow them)',
    );
    await expect(
      new PageTargetsValidator(open, chromium).checkHosts(pages),
    ).resolves.toBeUndefined();
  });

  it('should refuse a browser page when no browser is configured, naming the entry', async () => {
    const pages = pageTargets([
      { url: 'http://93.184.216.34/' },
      { url: 'http://93.184.216.34/app', render: 'browser' },
    ]);
    await expect(new PageTargetsValidator(open, noBrowser).checkHosts(pages)).rejects.toThrow(
      new BadRequestException(
        'Invalid pages: pages[1].render: no browser is configured (set BROWSER_WS_ENDPOINT or CHROMIUM_PATH)',
      ),
    );
    await expect(
      new PageTargetsValidator(open, chromium).checkHosts(pages),
    ).resolves.toBeUndefined();
  });
});

describe('pageTargets render and wait_for', () => {
  it('should keep render and a wait_for of a browser page', () => {
    expect(
      pageTargets([
        { url: 'https://e.example/a', render: 'http' },
        { url: 'https://e.example/b', render: 'browser', wait_for: '#app .ready' },
      ]),
    ).toEqual([
      { url: 'https://e.example/a', render: 'http' },
      { url: 'https://e.example/b', render: 'browser', wait_for: '#app .ready' },
    ]);
  });

  it.each([
    [{ render: 'chrome' }, 'pages[0].render must be "http" or "browser"'],
    [{ wait_for: '#app' }, 'pages[0].wait_for needs render "browser"'],
    [{ render: 'http', wait_for: '#app' }, 'pages[0].wait_for needs render "browser"'],
    [
      { render: 'browser', wait_for: 'x'.repeat(201) },
      'pages[0].wait_for: must be a CSS selector of 1 to 200 characters',
    ],
    [{ render: 'browser', wait_for: 'div:has(p)' }, 'pages[0].wait_for: '],
  ])('should refuse %j', (fields, reason) => {
    expect(() => pageTargets([{ url: 'https://e.example/a', ...fields }])).toThrow(
      `Invalid pages: ${reason}`,
    );
  });
});
