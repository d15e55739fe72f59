import { readPageText } from '../reading/page-text';
import type { PageValueReadings, PageValueTarget } from '../page.types';
import { MAX_JSON_LD_CHARS } from './structured-data';

function readValues(
  contentType: string,
  body: string,
  values: PageValueTarget[],
  selector?: string,
): PageValueReadings | undefined {
  const read = readPageText({ contentType, body: Buffer.from(body) }, selector, values);
  if (read.kind === 'error') throw new Error(read.error);
  return read.values;
}

const html = (head: string, body = '<p>Product</p>') =>
  `<html><head>${head}</head><body>${body}</body></html>`;
const jsonLd = (value: unknown) =>
  `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
const PRICE: PageValueTarget[] = [{ name: 'price', from: 'price' }];
const STOCK: PageValueTarget[] = [{ name: 'stock', from: 'availability' }];

describe('values read from HTML pages', () => {
  it.each([
    [
      'an Offer',
      jsonLd({ '@type': 'Offer', price: '89.99', priceCurrency: 'EUR' }),
      { value: 89.99, source: 'JSON-LD offers.price' },
    ],
    [
      'a Product in @graph with several offers, the lowest',
      jsonLd({
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'WebPage', name: 'Shop' },
          {
            '@type': 'Product',
            offers: [
              { '@type': 'Offer', price: 120 },
              { '@type': 'Offer', price: '99.50' },
            ],
          },
        ],
      }),
      { value: 99.5, source: 'JSON-LD offers.price' },
    ],
    [
      'an AggregateOffer lowPrice',
      jsonLd({
        '@type': ['Product'],
        offers: { '@type': 'AggregateOffer', lowPrice: '1.299,00', highPrice: 1500 },
      }),
      { value: 1299, source: 'JSON-LD offers.lowPrice' },
    ],
    [
      'a ProductGroup priceSpecification',
      jsonLd({
        '@type': 'ProductGroup',
        offers: { '@type': 'Offer', priceSpecification: { price: 45 } },
      }),
      { value: 45, source: 'JSON-LD offers.priceSpecification.price' },
    ],
    [
      'microdata content',
      '',
      { value: 12.5, source: 'microdata' },
      '<div itemscope><span itemprop="price" content="12.50">12,50 €</span></div>',
    ],
    [
      'microdata text',
      '',
      { value: 7.95, source: 'microdata' },
      '<div itemscope><span itemprop="price">7,95 €</span></div>',
    ],
    [
      'meta product:price:amount',
      '<meta property="product:price:amount" content="19.00">',
      { value: 19, source: 'meta product:price:amount' },
    ],
    [
      'meta og:price:amount',
      '<meta property="og:price:amount" content="5">',
      { value: 5, source: 'meta og:price:amount' },
    ],
    [
      'JSON-LD before microdata and meta',
      `${jsonLd({ '@type': 'Offer', price: 30 })}<meta property="og:price:amount" content="5">`,
      { value: 30, source: 'JSON-LD offers.price' },
      '<p>Product</p><span itemprop="price" content="10"></span>',
    ],
    [
      'malformed JSON-LD skipped',
      `<script type="application/ld+json">{"@type": "Offer", price: </script>
       <meta property="product:price:amount" content="8">`,
      { value: 8, source: 'meta product:price:amount' },
    ],
  ])('reads the price of %s', (_case, head, expected, body = '<p>Product</p>') => {
    expect(readValues('text/html', html(head, body), PRICE)).toEqual({ price: expected });
  });

  it('skips JSON-LD blocks too long or too deep to read, and reads the next', () => {
    const long = jsonLd({ '@type': 'Offer', price: 1, filler: 'x'.repeat(MAX_JSON_LD_CHARS) });
    const deep = `<script type="application/ld+json">${'['.repeat(5_000)}</script>`;
    const page = html(`${long}${deep}${jsonLd({ '@type': 'Offer', price: 2 })}`);
    expect(readValues('text/html', page, PRICE)).toEqual({
      price: { value: 2, source: 'JSON-LD offers.price' },
    });
  });

  it('reads a price with a selector from that element, and says why none is found', () => {
    const page = html('', '<p class="price">Now 89,99 €</p><p class="old">99,99 €</p>');
    expect(
      readValues('text/html', page, [
        { name: 'price', from: 'price', selector: '.price' },
        { name: 'gone', from: 'number', selector: '.missing' },
        { name: 'words', from: 'number', selector: 'p:last-child' },
        { name: 'plain', from: 'price' },
      ]),
    ).toEqual({
      price: { value: 89.99, source: 'selector .price: "Now 89,99 €"' },
      gone: { error: 'not found' },
      words: { value: 99.99, source: 'selector p:last-child: "99,99 €"' },
      plain: { error: 'not found' },
    });
  });

  it('reads the text of the first match, its lines joined, and values outside the page selector', () => {
    const page = html('', '<div id="v"><h2>Version</h2><p>2.4.1</p></div><main>Body</main>');
    expect(
      readValues('text/html', page, [{ name: 'version', from: 'text', selector: '#v' }], 'main'),
    ).toEqual({ version: { value: 'Version 2.4.1', source: 'selector #v' } });
  });

  it.each([
    [{ '@type': 'Offer', availability: 'https://schema.org/InStock' }, 'in_stock'],
    [
      {
        '@type': 'Product',
        offers: [
          { '@type': 'Offer', availability: 'http://schema.org/OutOfStock' },
          { '@type': 'Offer', availability: 'LimitedAvailability' },
        ],
      },
      'in_stock',
    ],
    [
      {
        '@type': 'Product',
        offers: [
          { '@type': 'Offer', availability: 'PreOrder' },
          { '@type': 'Offer', availability: 'OutOfStock' },
        ],
      },
      'preorder',
    ],
  ])('reads the availability of JSON-LD %j', (data, expected) => {
    expect(readValues('text/html', html(jsonLd(data)), STOCK)).toEqual({
      stock: { value: expected, source: 'JSON-LD offers.availability' },
    });
  });

  it('reads availability from microdata href or content, and says not a value for others', () => {
    const linked = html(
      '',
      '<p>Item</p><link itemprop="availability" href="https://schema.org/BackOrder">',
    );
    expect(readValues('text/html', linked, STOCK)).toEqual({
      stock: { value: 'backorder', source: 'microdata' },
    });
    const odd = html('', '<p>Item</p><meta itemprop="availability" content="Maybe">');
    expect(readValues('text/html', odd, STOCK)).toEqual({ stock: { error: 'not a value' } });
  });
});

describe('values read from JSON and text pages', () => {
  const api = JSON.stringify({ data: { version: '2.1', count: 3, tags: ['a'], gone: null } });

  it.each([
    ['$.data.version', { value: '2.1', source: 'path $.data.version' }],
    ['$.data.count', { value: 3, source: 'path $.data.count' }],
    ['$.data.gone', { value: null, source: 'path $.data.gone' }],
    ['$.data.tags', { error: 'not a value' }],
    ['$.data.missing', { error: 'not found' }],
    ['$..version', { value: '2.1', source: 'path $..version' }],
  ])('reads %s', (path, expected) => {
    expect(readValues('application/json', api, [{ name: 'v', from: 'json', path }])).toEqual({
      v: expected,
    });
  });

  it('reads the first number of a text/plain page, and no selector there', () => {
    expect(
      readValues('text/plain', 'Queue length: 1 234\nUpdated', [
        { name: 'queue', from: 'number' },
        { name: 'other', from: 'number', selector: 'p' },
      ]),
    ).toEqual({
      queue: { value: 1234, source: 'page text: "Queue length: 1 234\\nUpdated"' },
      other: { error: 'not found' },
    });
  });
});

describe('values of hostile pages', () => {
  it('should keep nested microdata prices bounded and read the page in time linear in its size', () => {
    const depth = 50_000;
    const page = `<html><body><p>Deep</p>${'<span itemprop="price">'.repeat(depth)}7${'</span>'.repeat(depth)}</body></html>`;
    expect(readValues('text/html', page, PRICE)).toEqual({
      price: { value: 7, source: 'microdata' },
    });
  });

  it('should cut a long string a JSONPath reads', () => {
    const api = JSON.stringify({ note: 'x'.repeat(10_000) });
    const read = readValues('application/json', api, [{ name: 'n', from: 'json', path: '$.note' }]);
    expect(read?.n).toEqual({ value: 'x'.repeat(500), source: 'path $.note' });
  });
});

describe('values as stored', () => {
  it('should read U+0000 as U+FFFD, as in the text', () => {
    const api = JSON.stringify({ note: 'a\u0000b' });
    expect(
      readValues('application/json', api, [{ name: 'n', from: 'json', path: '$.note' }]),
    ).toEqual({ n: { value: 'a\uFFFDb', source: 'path $.note' } });
  });
});
