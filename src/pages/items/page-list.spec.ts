import { readPage } from '../reading/page-read';
import {
  MAX_PAGE_RESULT_BYTES,
  pageResultLine,
  withinEntryBound,
} from '../results/page-result-line';
import { compareItems, itemKeyHash, MAX_NEW_ITEMS } from './page-items';
import { readPageList } from './page-list';

const BASE = 'https://news.example/list';

function answer(contentType: string, source: string) {
  return { contentType, body: Buffer.from(source) };
}

function listOf(contentType: string, source: string, items: { selector?: string } | undefined) {
  const read = readPageList(answer(contentType, source), items, BASE);
  if (read?.kind !== 'text') throw new Error(`not a list: ${JSON.stringify(read)}`);
  return read;
}

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>News</title><link>https://news.example/</link>
  <item><title>First &amp; best</title><link>/posts/1</link><guid>post-1</guid></item>
  <item><title>Second</title><link>https://news.example/posts/2</link></item>
  <item><title>Only a title</title></item>
</channel></rss>`;

const RDF = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
  <channel rdf:about="https://news.example/"><title>RDF news</title><link>https://news.example/</link></channel>
  <item rdf:about="https://news.example/r1"><title>R one</title><link>https://news.example/r1</link></item>
</rdf:RDF>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title type="html">Atom &lt;b&gt;news&lt;/b&gt;</title>
  <entry><title>A one</title><id>urn:a1</id>
    <link rel="self" href="https://news.example/a1.xml"/>
    <link rel="alternate" href="https://news.example/a1"/></entry>
  <entry><title type="html">&lt;em&gt;A&lt;/em&gt; two</title><link href="/a2"/></entry>
</feed>`;

const JSON_FEED = JSON.stringify({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'JSON news',
  items: [
    { id: 'j1', title: 'J one', url: 'https://news.example/j1' },
    { id: 'j2', content_text: 'no title', external_url: 'https://elsewhere.example/j2' },
  ],
});

describe('readPageList: HTML lists', () => {
  const html = `<html><head><title>Jobs</title></head><body><ul>
    <li class="job"><a href="/jobs/1">Rust engineer</a> <span>Berlin</span></li>
    <li class="job"><div><p>Go engineer</p><p>Paris</p></div><a>no link</a><a href="/jobs/2">more</a></li>
    <li class="job"><a class="job" href="https://other.example/3">Nested link</a></li>
    <li class="job">   </li>
  </ul><a class="x" href="#top">Top</a></body></html>`;

  it('should read each match as an item: its text on one line, its link resolved', () => {
    const read = listOf('text/html', html, { selector: 'li.job' });
    expect(read.title).toBe('Jobs');
    expect(read.items).toEqual([
      {
        title: 'Rust engineer Berlin',
        url: 'https://news.example/jobs/1',
        key: 'https://news.example/jobs/1',
      },
      {
        title: 'Go engineer Paris no linkmore',
        url: 'https://news.example/jobs/2',
        key: 'https://news.example/jobs/2',
      },
      { title: 'Nested link', url: 'https://other.example/3', key: 'https://other.example/3' },
    ]);
    expect(read.text).toBe(
      'Rust engineer Berlin https://news.example/jobs/1\n' +
        'Go engineer Paris no linkmore https://news.example/jobs/2\n' +
        'Nested link https://other.example/3',
    );
  });

  it('should take an a element’s own href, and key an item without a link by its title', () => {
    const read = listOf('text/html', `<a class="i" href="p?q=1">One</a><p class="i">Two</p>`, {
      selector: '.i',
    });
    expect(read.items).toEqual([
      { title: 'One', url: 'https://news.example/p?q=1', key: 'https://news.example/p?q=1' },
      { title: 'Two', url: null, key: 'Two' },
    ]);
    expect(read.text).toBe('One https://news.example/p?q=1\nTwo');
  });

  it('should cut a title to 300 characters', () => {
    const read = listOf('text/html', `<p class="i">${'t'.repeat(5_000)}</p>`, { selector: '.i' });
    expect(read.items[0].title).toHaveLength(300);
  });

  it('should read a NUL in an item’s title and key as U+FFFD, as in the text', () => {
    const list = listOf('text/html', '<p class="i">a\u0000b</p>', { selector: '.i' });
    expect(list.items).toEqual([{ title: 'a\uFFFDb', url: null, key: 'a\uFFFDb' }]);
    const feed = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      items: [{ id: 'k\u0000', title: 't\u0000' }],
    });
    expect(listOf('application/feed+json', feed, undefined).items).toEqual([
      { title: 't\uFFFD', url: null, key: 'k\uFFFD' },
    ]);
    const read = readPage(
      {
        kind: 'page',
        contentType: 'text/html',
        items: { selector: '.i' },
        previousText: 'x',
        seenKeys: [itemKeyHash('x')],
      },
      Buffer.from('<p class="i">n\u0000ew</p>'),
    );
    expect(JSON.stringify(read)).not.toContain('\\u0000');
    expect(read).toMatchObject({
      status: 'changed',
      added: ['n\uFFFDew'],
      news: { newItems: [{ title: 'n\uFFFDew', url: null }], newItemKeys: ['n\uFFFDew'] },
    });
  });

  it('should be not a feed without a selector, and say when the selector matched nothing', () => {
    const page = answer('text/html', '<p>x</p>');
    expect(readPageList(page, {}, BASE)).toEqual({ kind: 'error', error: 'not a feed' });
    expect(readPageList(page, { selector: '.none' }, BASE)).toEqual({
      kind: 'error',
      error: 'selector matched nothing',
    });
    expect(readPageList(answer('text/plain', 'a\nb'), {}, BASE)).toEqual({
      kind: 'error',
      error: 'not a feed',
    });
  });

  it('should leave a page without items and that is no feed to be read as text', () => {
    expect(readPageList(answer('text/html', '<p>x</p>'), undefined, BASE)).toBeNull();
    expect(readPageList(answer('application/xml', '<urlset/>'), undefined, BASE)).toBeNull();
  });
});

describe('readPageList: feeds', () => {
  it('should read RSS 2.0 entries: guid, else link, else title as the key', () => {
    const read = listOf('application/rss+xml', RSS, undefined);
    expect(read.title).toBe('News');
    expect(read.items).toEqual([
      { title: 'First & best', url: 'https://news.example/posts/1', key: 'post-1' },
      {
        title: 'Second',
        url: 'https://news.example/posts/2',
        key: 'https://news.example/posts/2',
      },
      { title: 'Only a title', url: null, key: 'Only a title' },
    ]);
    expect(read.text).toBe(
      'First & best https://news.example/posts/1\nSecond https://news.example/posts/2\nOnly a title',
    );
  });

  it('should read RSS 1.0 and Atom served as XML by their root', () => {
    expect(listOf('application/xml', RDF, undefined).items).toEqual([
      { title: 'R one', url: 'https://news.example/r1', key: 'https://news.example/r1' },
    ]);
    const atom = listOf('text/xml', ATOM, {});
    expect(atom.title).toBe('Atom news');
    expect(atom.items).toEqual([
      { title: 'A one', url: 'https://news.example/a1', key: 'urn:a1' },
      { title: 'A two', url: 'https://news.example/a2', key: 'https://news.example/a2' },
    ]);
  });

  it('should read a JSON Feed as a feed, not as JSON', () => {
    expect(listOf('application/feed+json', JSON_FEED, undefined).items).toEqual([
      { title: 'J one', url: 'https://news.example/j1', key: 'j1' },
      { title: '', url: 'https://elsewhere.example/j2', key: 'j2' },
    ]);
  });

  it('should be not a feed when a feed type holds no feed', () => {
    for (const [type, source] of [
      ['application/rss+xml', '<html><body>Not found</body></html>'],
      ['application/atom+xml', 'plain words'],
      ['application/feed+json', '{"broken'],
      ['application/feed+json', '{"version":"x","items":"no"}'],
    ]) {
      expect(readPageList(answer(type, source), {}, BASE)).toEqual({
        kind: 'error',
        error: 'not a feed',
      });
    }
  });

  it('should never expand a feed’s own entities (billion laughs)', () => {
    const levels = Array.from({ length: 9 }, (_, level) => {
      const inner = level === 0 ? 'lol' : `&lol${level};`.repeat(10);
      return `<!ENTITY lol${level + 1} "${inner}">`;
    });
    const source = `<?xml version="1.0"?><!DOCTYPE lolz [${levels.join('')}]>
      <rss version="2.0"><channel><title>L</title>
      <item><title>&lol9;</title><link>https://news.example/l</link></item></channel></rss>`;
    const read = listOf('application/rss+xml', source, {});
    expect(read.items).toHaveLength(1);
    expect(read.items[0].title.length).toBeLessThanOrEqual(300);
    expect(read.text.length).toBeLessThan(1_000);
  });

  it('should cut an entry of 5 MB to a title of 300 characters', () => {
    const source = `<rss version="2.0"><channel><title>B</title><item><title>${'x'.repeat(
      5_000_000,
    )}</title><description>${'y'.repeat(100)}</description><link>https://news.example/b</link></item></channel></rss>`;
    const read = listOf('application/rss+xml', source, {});
    expect(read.items[0].title).toHaveLength(300);
    expect(read.items[0].url).toBe('https://news.example/b');
  });

  it('should find a feed nested too deep for JSON too complex', () => {
    const deep = `{"version":"https://jsonfeed.org/version/1","items":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
    expect(readPageList(answer('application/feed+json', deep), {}, BASE)).toEqual({
      kind: 'error',
      error: 'too complex',
    });
  });
});

describe('compareItems', () => {
  const items = (keys: string[]) => keys.map((key) => ({ title: `T ${key}`, url: null, key }));

  it('should take the first fetch as the baseline: nothing new, every key remembered', () => {
    const first = compareItems(items(['a', 'b', 'a']), null, false);
    expect(first).toMatchObject({ status: 'new', newItems: [], added: [] });
    expect(first.keysToRemember).toEqual([itemKeyHash('a'), itemKeyHash('b')]);
  });

  it('should find new keys in the page’s order, and no change in items gone or moved', () => {
    const seen = [itemKeyHash('a'), itemKeyHash('b')];
    expect(compareItems(items(['b', 'a']), seen, true)).toMatchObject({
      status: 'same',
      newItems: [],
      keysToRemember: [],
    });
    const next = compareItems(items(['c', 'a', 'd']), seen, true);
    expect(next).toMatchObject({
      status: 'changed',
      newItems: [
        { title: 'T c', url: null },
        { title: 'T d', url: null },
      ],
      newItemKeys: ['c', 'd'],
      added: ['T c', 'T d'],
      keysToRemember: [itemKeyHash('c'), itemKeyHash('d')],
    });
  });

  it('should show the first 50 new items and remember them all', () => {
    const keys = Array.from({ length: 80 }, (_, index) => `k${index}`);
    const next = compareItems(items(keys), [], true);
    expect(next.newItems).toHaveLength(MAX_NEW_ITEMS);
    expect(next.keysToRemember).toHaveLength(80);
  });
});

describe('readPage of a page with items', () => {
  it('should compare items, not text, and read a feed without items as text lines', () => {
    const body = Buffer.from(RSS);
    const request = {
      kind: 'page' as const,
      contentType: 'application/rss+xml',
      previousText: 'old',
      finalUrl: BASE,
    };
    const listed = readPage(
      { ...request, items: {}, seenKeys: [itemKeyHash('post-1'), itemKeyHash('Only a title')] },
      body,
    );
    expect(listed).toMatchObject({
      kind: 'text',
      status: 'changed',
      added: ['Second https://news.example/posts/2'],
      removed: [],
      news: { newItems: [{ title: 'Second', url: 'https://news.example/posts/2' }] },
    });
    const text = readPage(request, body);
    expect(text).toMatchObject({ kind: 'text', status: 'changed', removed: ['old'], news: null });
  });
});

describe('values of a page read as a list', () => {
  it('should read an HTML list’s values in the pass that reads its items', () => {
    const html = `<html><body><p class="count">12 openings</p>
      <ul><li class="job"><a href="/jobs/1">Rust engineer</a></li></ul></body></html>`;
    const read = readPage(
      {
        kind: 'page',
        contentType: 'text/html',
        previousText: null,
        finalUrl: BASE,
        items: { selector: 'li.job' },
        values: [{ name: 'openings', from: 'number', selector: '.count' }],
      },
      Buffer.from(html),
    );
    expect(read).toMatchObject({
      kind: 'text',
      text: 'Rust engineer https://news.example/jobs/1',
      values: { openings: { value: 12, source: 'selector .count: "12 openings"' } },
    });
  });

  it('should read a JSON Feed’s json values, and find no other value of a feed', () => {
    const values = [
      { name: 'version', from: 'json' as const, path: '$.version' },
      { name: 'price', from: 'price' as const },
    ];
    expect(
      readPageList(answer('application/feed+json', JSON_FEED), {}, BASE, values),
    ).toMatchObject({
      kind: 'text',
      values: {
        version: { value: 'https://jsonfeed.org/version/1.1', source: 'path $.version' },
        price: { error: 'not found' },
      },
    });
    expect(readPageList(answer('application/rss+xml', RSS), {}, BASE, values)).toMatchObject({
      values: { version: { error: 'not found' }, price: { error: 'not found' } },
    });
  });
});

describe('withinEntryBound of a page with new items', () => {
  it('should keep as many new items as fit, each with its added line', () => {
    const newItems = Array.from({ length: 50 }, (_, index) => ({
      title: `${index} ${'t'.repeat(290)}`,
      url: `https://news.example/${index}/${'u'.repeat(2_000)}`,
    }));
    const bounded = withinEntryBound({
      url: BASE,
      render: 'http',
      finalUrl: BASE,
      status: 'changed',
      httpStatus: 200,
      title: 'News',
      error: null,
      added: newItems.map((item) => `${item.title} ${item.url}`.slice(0, 500)),
      removed: [],
      fetchedAt: new Date(0),
      text: 'x',
      contentHash: 'hash',
      etag: null,
      lastModified: null,
      bodyHash: null,
      newItems,
      newItemKeys: [],
      keysToRemember: [],
    });
    expect(Buffer.byteLength(JSON.stringify(pageResultLine(bounded)))).toBeLessThanOrEqual(
      MAX_PAGE_RESULT_BYTES,
    );
    expect(bounded.newItems!.length).toBeGreaterThan(10);
    expect(bounded.newItems).toEqual(newItems.slice(0, bounded.added.length));
  });
});
