import { readPageText, isBotCheckAnswer, MAX_TEXT_CHARS } from './page-text';
import { MAX_JSON_DEPTH } from './text-bounds';

const html = (markup: string, charset?: string) => ({
  contentType: 'text/html',
  body: Buffer.from(markup, charset === 'latin1' ? 'latin1' : 'utf8'),
  ...(charset ? { charset } : {}),
});

describe('readPageText', () => {
  it('should read the visible text of the body, one line per block, without hidden parts', () => {
    const read = readPageText(
      html(`<html><head><title> Shop
        page </title><style>p{}</style></head><body>
        <h1>Price   list</h1><p>Widget <b>80</b> EUR<br>in stock</p>
        <script>var x = 1;</script><noscript>enable js</noscript><template>t</template>
        <div hidden>secret <p>deal</p></div><ul><li>one</li><li>two &amp; three</li></ul>
        <table><tr><td>a</td><td>b</td></tr></table><pre>x  y
z</pre><p>   </p></body></html>`),
    );
    expect(read).toEqual({
      kind: 'text',
      title: 'Shop page',
      text: 'Price list\nWidget 80 EUR\nin stock\none\ntwo & three\na b\nx y\nz',
    });
  });

  it('should read every element a selector matches, in document order, once each', () => {
    const markup =
      '<body><div class="a">first <span class="a">inner</span></div><p>skip</p><p class="a">second</p></body>';
    expect(readPageText(html(markup), '.a')).toEqual({
      kind: 'text',
      title: null,
      text: 'first inner\nsecond',
    });
    expect(readPageText(html(markup), '#none')).toEqual({
      kind: 'error',
      error: 'selector matched nothing',
    });
  });

  it.each([
    ['an id and an attribute', '#price, [data-kind="note"]', '80 EUR\nnote one'],
    ['a child combinator', 'ul > li', 'one\ntwo\nthree'],
    ['a negation', 'li:not(.sold)', 'one\nthree'],
    ['the root', 'html > body > p', 'note one'],
    ['an adjacent sibling', 'li + li', 'two\nthree'],
    ['a later sibling', 'h1 ~ p', 'note one'],
    ['a counted child', 'li:nth-child(2), ul li:first-child', 'one\ntwo'],
    [
      'what follows the element',
      'li:last-child, div:not(:last-child), p:not(:first-child)',
      'shop 80 EUR\nnote one\nthree',
    ],
    ['an empty element', 'i:last-child', ''],
  ])('should read the matches of a selector with %s', (_kind, selector, text) => {
    const markup =
      '<html><body><h1>Shop</h1><div>shop <span id="price">80 EUR</span></div>' +
      '<p data-kind="note">note one</p><ul><li>one</li><li class="sold">two</li><li>three</li></ul>' +
      '<i></i></body></html>';
    expect(readPageText(html(markup), selector)).toEqual(
      text === '' ? { kind: 'error', error: 'no text' } : { kind: 'text', title: null, text },
    );
  });

  it('should decode with the header charset, else the meta charset, else UTF-8', () => {
    const header = readPageText(html('<p>caf\u00e9</p>', 'latin1'));
    const meta = readPageText({
      contentType: 'text/html',
      body: Buffer.from('<meta charset="iso-8859-1"><p>caf\u00e9</p>', 'latin1'),
    });
    const fallback = readPageText(html('<p>caf\u00e9</p>'));
    const iconvOnly = readPageText({
      contentType: 'text/plain',
      charset: 'cp437',
      body: Buffer.from([0x82]),
    });
    expect([header, meta, fallback].map((read) => read.kind === 'text' && read.text)).toEqual([
      'caf\u00e9',
      'caf\u00e9',
      'caf\u00e9',
    ]);
    expect(iconvOnly).toMatchObject({ text: '\u00e9' });
  });

  it('should keep plain text as it is and give JSON sorted keys and a two-space indent', () => {
    const plain = readPageText({ contentType: 'text/plain', body: Buffer.from('a  b\r\nc') });
    const json = readPageText({
      contentType: 'application/problem+json',
      body: Buffer.from('{"b":1,"a":{"d":[{"z":1,"y":2}],"c":null}}'),
    });
    expect(plain).toEqual({ kind: 'text', text: 'a  b\nc', title: null });
    expect(json).toMatchObject({
      text: '{\n  "a": {\n    "c": null,\n    "d": [\n      {\n        "y": 2,\n        "z": 1\n      }\n    ]\n  },\n  "b": 1\n}',
    });
  });

  it('should refuse other types and empty pages, and keep at most the maximum', () => {
    const css = readPageText({ contentType: 'text/css', body: Buffer.from('p{}') });
    const empty = readPageText(html('<body><script>only()</script></body>'));
    const long = readPageText({
      contentType: 'text/plain',
      body: Buffer.from('x'.repeat(200_000)),
    });
    expect([css, empty]).toEqual([
      { kind: 'error', error: 'unsupported content type text/css' },
      { kind: 'error', error: 'no text' },
    ]);
    expect(long.kind === 'text' && long.text.length).toBe(MAX_TEXT_CHARS);
  });

  it.each([
    ['a challenge title', '<title>Just a moment...</title><body>Checking your browser</body>'],
    ['a Cloudflare block', '<title>Attention Required! | Cloudflare</title><body>x</body>'],
    [
      'a marker on a short page',
      '<body><div class="cf-turnstile"></div>Verify you are human</body>',
    ],
  ])('should read %s as a bot check', (_name, markup) => {
    expect(readPageText(html(markup))).toEqual({ kind: 'error', error: 'blocked by a bot check' });
    expect(isBotCheckAnswer(html(markup))).toBe(true);
  });

  it('should read a long page that merely mentions a marker as the page', () => {
    const markup = `<body><p>${'Real content. '.repeat(60)}</p><div class="g-recaptcha"></div></body>`;
    expect(readPageText(html(markup)).kind).toBe('text');
    expect(
      isBotCheckAnswer({ contentType: 'application/json', body: Buffer.from('"h-captcha"') }),
    ).toBe(false);
  });
});

describe('readPageText bounds', () => {
  const json = (source: string) => ({ contentType: 'application/json', body: Buffer.from(source) });
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('should cut a title of 4 MB to 300 characters, never in half a surrogate pair', () => {
    const long = readPageText(html(`<title>${'t'.repeat(4_000_000)}</title><p>x</p>`));
    const astral = readPageText(html(`<title>${'t'.repeat(299)}\u{1F600}</title><p>x</p>`));
    expect(long.kind === 'text' && long.title).toBe('t'.repeat(300));
    expect(astral.kind === 'text' && astral.title).toBe('t'.repeat(299));
  });

  it('should read a NUL in the text and the title as U+FFFD', () => {
    expect(readPageText(html('<title>a\u0000b</title><p>c\u0000d</p>'))).toEqual({
      kind: 'text',
      text: 'c\uFFFDd',
      title: 'a\uFFFDb',
    });
    expect(readPageText({ contentType: 'text/plain', body: Buffer.from('e\u0000f') })).toEqual({
      kind: 'text',
      text: 'e\uFFFDf',
      title: null,
    });
  });

  it('should read JSON nested to the limit and call deeper JSON too complex, without recursion', () => {
    const deepest = readPageText(json(nested(MAX_JSON_DEPTH)));
    expect(deepest.kind === 'text' && deepest.text.startsWith('[\n  [\n    [')).toBe(true);
    expect(readPageText(json(nested(MAX_JSON_DEPTH + 1)))).toEqual({
      kind: 'error',
      error: 'too complex',
    });
    expect(readPageText(json(nested(100_000)))).toEqual({ kind: 'error', error: 'too complex' });
  });

  it('should keep a key named __proto__ as a key', () => {
    expect(readPageText(json('{"z":1,"__proto__":{"b":2,"a":1}}'))).toMatchObject({
      text: '{\n  "__proto__": {\n    "a": 1,\n    "b": 2\n  },\n  "z": 1\n}',
    });
  });

  it('should read an error answer for a bot check from its first 64 kB only', () => {
    const marker = '<div class="cf-turnstile"></div>';
    expect(isBotCheckAnswer(html(`${' '.repeat(63_000)}${marker}`))).toBe(true);
    expect(isBotCheckAnswer(html(`${' '.repeat(64_000)}${marker}`))).toBe(false);
  });
});
