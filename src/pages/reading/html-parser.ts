import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** What reading a document is told, element by element, in document order. */
export interface HtmlHandler {
  open(name: string, attributes: Record<string, string>): void;
  text(data: string): void;
  close(name: string): void;
}

const P = new Set(['p']);
const FORM_ELEMENTS = new Set([
  'input',
  'option',
  'optgroup',
  'select',
  'button',
  'datalist',
  'textarea',
]);
const TABLE_SECTIONS = new Set(['thead', 'tbody']);
const DEFINITIONS = new Set(['dd', 'dt']);
const RUBY_TEXT = new Set(['rt', 'rp']);
/** The open elements that a start tag closes while one of them is the current element. */
const IMPLIED_ENDS = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DEFINITIONS],
  ['dt', DEFINITIONS],
  ['rt', RUBY_TEXT],
  ['rp', RUBY_TEXT],
  ['tbody', TABLE_SECTIONS],
  ['tfoot', TABLE_SECTIONS],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map(
    (name) => [name, FORM_ELEMENTS] as const,
  ),
  ...(
    'p h1 h2 h3 h4 h5 h6 address article aside blockquote details div dl fieldset figcaption ' +
    'figure footer form header hr main nav ol pre section table ul'
  )
    .split(' ')
    .map((name) => [name, P] as const),
]);
const VOID_ELEMENTS = new Set(
  (
    'area base basefont br col command embed frame hr img input isindex keygen link meta param ' +
    'source track wbr'
  ).split(' '),
);
/** Where a `/>` closes the element it ends, as in XML. */
const FOREIGN_ELEMENTS = new Set(['math', 'svg']);
/** HTML again inside foreign content. */
const INTEGRATION_POINTS = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'title',
]);

/** The attributes of every element without any, so that most elements allocate none. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

/** What the tree builder knows of one tag name, found once per tag rather than set by set. */
interface Tag {
  /**
   * One string per tag name: a deep page keeps a name per open element, and a million copies of
   * `div` would each be a string for the garbage collector to walk.
   */
  name: string;
  /** The open elements its start tag closes while one of them is the current element. */
  impliedEnds: ReadonlySet<string> | undefined;
  isVoid: boolean;
  /** Inside it, whether `/>` ends an element (SVG and MathML) or not (HTML again); else null. */
  foreign: boolean | null;
  /** Its elements' places in the open elements, innermost last: an end tag finds one at once. */
  places: number[];
}

function tagOf(name: string): Tag {
  return {
    name,
    impliedEnds: IMPLIED_ENDS.get(name),
    isVoid: VOID_ELEMENTS.has(name),
    foreign: FOREIGN_ELEMENTS.has(name) ? true : INTEGRATION_POINTS.has(name) ? false : null,
    places: [],
  };
}

const RECENT_SLOTS = 256;

/** A tag name's slot among the recent tags: of its first letter, last letter and length. */
function recentSlot(html: string, start: number, end: number): number {
  return (html.charCodeAt(start) * 31 + html.charCodeAt(end - 1) + end - start) % RECENT_SLOTS;
}

/**
 * Builds a document's elements from htmlparser2's tokenizer as htmlparser2's own `Parser` does
 * (its rules for implied end tags, void elements, `/>` in SVG and MathML, a stray `</p>` or
 * `</br>`), keeping the open elements so that every tag costs O(1): `Parser` shifts its whole
 * stack for each start tag and searches it for each end tag, which made a deeply nested page
 * cost the square of its size (docs/pages.md, "Reading the text").
 */
class TreeBuilder implements TokenizerCallbacks {
  /** The open elements, innermost last. */
  private readonly open: Tag[] = [];
  /** The tags of the names that elements were opened with. */
  private readonly tags = new Map<string, Tag>();
  /**
   * The tag last opened in each slot (`recentSlot`): most start tags name one of these, and are
   * found in place, with no string made for the name.
   */
  private readonly recent = new Array<Tag | undefined>(RECENT_SLOTS).fill(undefined);
  /** Whether `/>` ends an element here, innermost last. */
  private readonly foreign = [false];
  private tag: Tag = tagOf('');
  private attributes = NO_ATTRIBUTES;
  private attributeName = '';
  private attributeValue = '';

  constructor(
    private readonly html: string,
    private readonly handler: HtmlHandler,
  ) {}

  ontext(start: number, end: number): void {
    this.handler.text(this.html.slice(start, end));
  }

  ontextentity(codePoint: number): void {
    this.handler.text(String.fromCodePoint(codePoint));
  }

  onopentagname(start: number, end: number): void {
    const slot = recentSlot(this.html, start, end);
    let tag = this.recent[slot];
    if (!this.spells(tag, start, end)) {
      const name = this.html.slice(start, end).toLowerCase();
      tag = this.tags.get(name);
      if (tag === undefined) this.tags.set(name, (tag = tagOf(name)));
      this.recent[slot] = tag;
    }
    this.tag = tag;
    this.attributes = NO_ATTRIBUTES;
  }

  onattribname(start: number, end: number): void {
    this.attributeName = this.html.slice(start, end).toLowerCase();
  }

  onattribdata(start: number, end: number): void {
    this.attributeValue += this.html.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    this.attributeValue += String.fromCodePoint(codePoint);
  }

  /** The first of two attributes of one name counts. */
  onattribend(): void {
    if (this.attributes === NO_ATTRIBUTES) this.attributes = {};
    if (!Object.hasOwn(this.attributes, this.attributeName)) {
      this.attributes[this.attributeName] = this.attributeValue;
    }
    this.attributeValue = '';
  }

  onopentagend(): void {
    this.startElement();
  }

  /** `/>` ends the element in foreign content only; in HTML it is a start tag like any other. */
  onselfclosingtag(): void {
    const tag = this.tag;
    this.startElement();
    if (this.foreign[this.foreign.length - 1] && this.open[this.open.length - 1] === tag) {
      this.pop();
    }
  }

  /**
   * Most end tags name the current element, and are found in place; a name no element was opened
   * with is looked up without keeping a tag for it.
   */
  onclosetag(start: number, end: number): void {
    const current = this.open[this.open.length - 1];
    let tag: Tag;
    if (this.spells(current, start, end)) {
      tag = current;
    } else {
      const name = this.html.slice(start, end).toLowerCase();
      tag = this.tags.get(name) ?? tagOf(name);
    }
    const { name } = tag;
    if (tag.foreign !== null) this.foreign.pop();
    if (tag.isVoid) {
      // `</br>` is a line break; other void end tags are nothing.
      if (name === 'br') this.emptyElement('br');
      return;
    }
    const { places } = tag;
    if (places.length > 0) {
      const place = places[places.length - 1];
      while (this.open.length > place) this.pop();
    } else if (name === 'p') {
      this.emptyElement('p');
    }
  }

  /** Whether the name at `start`..`end` is `tag`'s as written, in lower case. */
  private spells(tag: Tag | undefined, start: number, end: number): tag is Tag {
    return (
      tag !== undefined && tag.name.length === end - start && this.html.startsWith(tag.name, start)
    );
  }

  onend(): void {
    while (this.open.length > 0) this.pop();
  }

  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  private startElement(): void {
    const tag = this.tag;
    const ends = tag.impliedEnds;
    while (
      ends !== undefined &&
      this.open.length > 0 &&
      ends.has(this.open[this.open.length - 1].name)
    ) {
      this.pop();
    }
    this.handler.open(tag.name, this.attributes);
    if (tag.isVoid) {
      this.handler.close(tag.name);
      return;
    }
    tag.places.push(this.open.length);
    this.open.push(tag);
    if (tag.foreign !== null) this.foreign.push(tag.foreign);
  }

  private emptyElement(name: string): void {
    this.handler.open(name, NO_ATTRIBUTES);
    this.handler.close(name);
  }

  private pop(): void {
    const tag = this.open.pop() as Tag;
    tag.places.pop();
    this.handler.close(tag.name);
  }
}

/**
 * Reads `html` into `handler` in one pass, in time linear in its size however deep it nests. A
 * tag the document ends inside of is dropped.
 */
export function parseHtml(html: string, handler: HtmlHandler): void {
  const tokenizer = new Tokenizer({ decodeEntities: true }, new TreeBuilder(html, handler));
  tokenizer.write(html);
  tokenizer.end();
}
