import { Parser } from 'htmlparser2';
import { parseHtml, type HtmlHandler } from './html-parser';

/** Records what a document is read as, text runs joined (how text is cut up does not matter). */
function recorder(): { events: string[]; handler: HtmlHandler } {
  const events: string[] = [];
  return {
    events,
    handler: {
      open: (name, attributes) => events.push(`<${name} ${JSON.stringify(attributes)}>`),
      text: (data) => {
        if (events.at(-1)?.startsWith('#')) events[events.length - 1] += data;
        else events.push(`#${data}`);
      },
      close: (name) => events.push(`</${name}>`),
    },
  };
}

describe('parseHtml', () => {
  it.each([
    ['implied end tags', '<p>a<div>b<p>c<ul><li>d<li>e</ul><dl><dt>f<dd>g</dl><h1>h</h1>'],
    ['tables', '<table><thead><tr><th>a<td>b<tbody><tr><td>c<td>d<tfoot><tr><td>e</table>'],
    ['forms', '<select><optgroup><option>a<option>b<optgroup><option>c</select><input><button>x'],
    ['void elements and stray end tags', 'a<br>b</br>c</p>d<hr/>e</img><img src=x>f</span>g'],
    ['end tags that close what is open inside', '<div><span><b>a</div>b</b><i>c</i>'],
    ['foreign content', '<svg><path/><title>t</title><desc><b/>x</desc></svg><div/>y</div>'],
    ['MathML', '<math><mi/><mo>+</mo></math><p/>z'],
    [
      'entities',
      '<p title="a &amp; b &quot;c&quot;">&lt;x&gt; &nbsp;&copy; &#x1F600; &#0; &bogus;</p>',
    ],
    ['repeated and upper-case attributes', '<DIV Class="a" class="b" HIDDEN data-x=\'1\'>x</Div>'],
    ['raw text', '<script>if (a < b) "</p>"</script><style>p{}</style><title>a &amp; b</title>'],
    ['comments and declarations', '<!doctype html><!-- <p>no</p> --><![CDATA[x]]><?php x ?>y'],
    ['a document cut short', '<ul><li>a<li>b<!-- never closed'],
    [
      'names alike in their first and last letters and length, and upper-case end tags',
      '<x-a-y>a<x-b-y>b</x-a-y>c<x-b-y>d</X-B-Y><DIV>e<Dov>f</DIV></div><td>g</TD>',
    ],
  ])('should read %s as htmlparser2 does', (_kind, html) => {
    const ours = recorder();
    const theirs = recorder();
    parseHtml(html, ours.handler);
    new Parser(
      {
        onopentag: (name, attributes) => theirs.handler.open(name, attributes),
        ontext: (data) => theirs.handler.text(data),
        onclosetag: (name) => theirs.handler.close(name),
      },
      { decodeEntities: true },
    ).end(html);
    expect(ours.events).toEqual(theirs.events);
  });

  it('should drop a tag the document ends inside of', () => {
    const read = recorder();
    parseHtml('<p>a<div class="b', read.handler);
    expect(read.events).toEqual(['<p {}>', '#a', '</p>']);
  });

  it('should read a million nested elements and close each one', () => {
    const read = { opened: 0, closed: 0, text: '' };
    parseHtml(`${'<div>'.repeat(1_000_000)}deep`, {
      open: () => (read.opened += 1),
      text: (data) => (read.text += data),
      close: () => (read.closed += 1),
    });
    expect(read).toEqual({ opened: 1_000_000, closed: 1_000_000, text: 'deep' });
  });
});
