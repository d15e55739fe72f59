import { compile, selectAll, type Options } from 'css-select';
import { hasChildren, isTag, isText, type AnyNode } from 'domhandler';
import { parseDocument, Parser } from 'htmlparser2';

/** Elements whose content is never visible text. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);
/** Elements that start and end a line of their own. */
const BLOCKS = new Set(
  (
    'address article aside blockquote body caption dd details dialog div dl dt fieldset ' +
    'figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li legend main nav ol ' +
    'option p pre section summary table tbody tfoot thead tr ul'
  ).split(' '),
);
/** Table cells stay on their row's line, apart by a space. */
const CELLS = new Set(['td', 'th']);

/**
 * Builds the visible text of HTML from its elements and text as they come (docs/pages.md,
 * "Reading the text"): nothing inside a skipped or `hidden` element, one line per block element
 * (and per `<br>`, and per line of a `<pre>`), whitespace collapsed inside a line, no empty line.
 */
class VisibleLines {
  private readonly lines: string[] = [];
  private line = '';
  /** Open elements since the one that started skipping (0: not skipping). */
  private skipDepth = 0;
  private preDepth = 0;

  open(name: string, attributes: Record<string, string>): void {
    if (this.skipDepth > 0 || SKIPPED.has(name) || attributes.hidden !== undefined) {
      this.skipDepth += 1;
    } else if (name === 'br' || BLOCKS.has(name)) {
      this.endLine();
      if (name === 'pre') this.preDepth += 1;
    } else if (CELLS.has(name)) {
      this.line += ' ';
    }
  }

  close(name: string): void {
    if (this.skipDepth > 0) {
      this.skipDepth -= 1;
    } else if (BLOCKS.has(name)) {
      this.endLine();
      if (name === 'pre') this.preDepth -= 1;
    }
  }

  text(data: string): void {
    if (this.skipDepth > 0) return;
    if (this.preDepth === 0) {
      this.line += data;
      return;
    }
    const parts = data.split('\n');
    this.line += parts[0];
    for (const part of parts.slice(1)) {
      this.endLine();
      this.line = part;
    }
  }

  endLine(): void {
    if (this.line === '') return;
    const collapsed = collapse(this.line);
    if (collapsed) this.lines.push(collapsed);
    this.line = '';
  }

  finish(): string {
    this.endLine();
    return this.lines.join('\n');
  }
}

export interface ScannedHtml {
  /** The visible text of the document. */
  text: string;
  title: string | null;
  /** The visible text of the selector's matches; null without a selector or a match. */
  selected: string | null;
}

/** Pseudo-classes that look at an element's earlier siblings, and no further. */
const SIBLING_PSEUDOS = new Set(['first-child', 'nth-child', 'first-of-type', 'nth-of-type']);
/** Pseudo-classes that look at an element and its ancestors only. */
const ANCESTOR_PSEUDOS = new Set(['not', 'is', 'matches', 'where', 'root']);

/**
 * What testing `selector` on an element needs to know: its `ancestors` only; their earlier
 * `siblings` too (`+`, `~`, `:nth-child`, ...); or the whole `tree`, for a selector that reads
 * what comes after the element (`:has`, `:contains`, `:empty`, `:last-child`, a parent
 * combinator, ...). Read from the selector's text: a wrong guess can only ask for more.
 */
function selectorNeeds(selector: string): 'ancestors' | 'siblings' | 'tree' {
  if (selector.includes('<')) return 'tree';
  let needs: 'ancestors' | 'siblings' = /[+~]/.test(selector) ? 'siblings' : 'ancestors';
  for (const [, name] of selector.matchAll(/:+([\w-]+)/g)) {
    const pseudo = name.toLowerCase();
    if (SIBLING_PSEUDOS.has(pseudo)) needs = 'siblings';
    else if (!ANCESTOR_PSEUDOS.has(pseudo)) return 'tree';
  }
  return needs;
}

/**
 * What one pass over an HTML document reads: its visible text, its `<title>`, and with a
 * selector the visible text of every match (an element inside another match counts once),
 * each match on lines of its own.
 */
class PageReading {
  private readonly body = new VisibleLines();
  private readonly selection = new VisibleLines();
  /** Open elements since the match being read (0: outside every match). */
  private matchDepth = 0;
  private matches = 0;
  private title: string | null = null;
  private titleText: string | null = null;

  open(name: string, attributes: Record<string, string>, matched: boolean): void {
    if (name === 'title' && this.title === null) this.titleText = '';
    this.body.open(name, attributes);
    if (this.matchDepth > 0) {
      this.matchDepth += 1;
    } else if (matched) {
      this.matches += 1;
      this.matchDepth = 1;
    } else {
      return;
    }
    this.selection.open(name, attributes);
  }

  text(data: string): void {
    if (this.titleText !== null) {
      this.titleText += data;
      return;
    }
    this.body.text(data);
    if (this.matchDepth > 0) this.selection.text(data);
  }

  close(name: string): void {
    if (name === 'title' && this.titleText !== null) {
      this.title = collapse(this.titleText) || null;
      this.titleText = null;
    }
    this.body.close(name);
    if (this.matchDepth === 0) return;
    this.selection.close(name);
    this.matchDepth -= 1;
    if (this.matchDepth === 0) this.selection.endLine();
  }

  finish(): ScannedHtml {
    return {
      text: this.body.finish(),
      title: this.title,
      selected: this.matches === 0 ? null : this.selection.finish(),
    };
  }
}

/**
 * An element as a selector sees it while the page streams by: its name, attributes, ancestors
 * and (when the selector needs them) earlier siblings; never its text or what comes after it.
 */
interface StreamedElement {
  name: string;
  attribs: Record<string, string>;
  parent: StreamedElement | null;
  prev: StreamedElement | null;
  /** The children seen so far, kept while the element is open and only for sibling tests. */
  children: StreamedElement[];
}

/**
 * css-select's view of streamed elements. The document is the element without a name, which is
 * no tag. Text and later children are never asked for: selectors that read them take the tree.
 */
const STREAMED: NonNullable<Options<StreamedElement, StreamedElement>['adapter']> = {
  isTag: (node): node is StreamedElement => node.name !== '',
  getAttributeValue: (elem, name) => elem.attribs[name],
  hasAttrib: (elem, name) => Object.hasOwn(elem.attribs, name),
  getName: (elem) => elem.name,
  getParent: (node) => node.parent,
  getChildren: (node) => node.children,
  getSiblings: (node) => node.parent?.children ?? [node],
  prevElementSibling: (node) => node.prev,
  getText: () => '',
  removeSubsets: (nodes) => nodes,
};

function streamedElement(
  name: string,
  attribs: Record<string, string>,
  parent: StreamedElement | null,
): StreamedElement {
  return { name, attribs, parent, prev: null, children: [] };
}

/**
 * An HTML document's visible text and `<title>` (docs/pages.md, "Reading the text"), and with
 * `selector` the text of its matches. One pass of the parser, testing the selector as each
 * element opens against the open elements (and, when it needs them, their earlier siblings),
 * kept without text; only a selector that reads what comes after an element is tested on a tree
 * of the whole document.
 */
export function scanHtml(html: string, selector?: string): ScannedHtml {
  const reading = new PageReading();
  const needs = selector === undefined ? null : selectorNeeds(selector);
  if (selector !== undefined && needs === 'tree') {
    const document = parseDocument(html);
    replay(document, reading, new Set(selectAll(selector, document)));
    return reading.finish();
  }
  const test = selector === undefined ? null : compile(selector, { adapter: STREAMED });
  const open = [streamedElement('', {}, null)];
  const parser = new Parser(
    {
      onopentag: (name, attributes) => {
        let matched = false;
        if (test !== null) {
          const parent = open[open.length - 1];
          const element = streamedElement(name, attributes, parent);
          if (needs === 'siblings') {
            element.prev = parent.children[parent.children.length - 1] ?? null;
            parent.children.push(element);
          }
          open.push(element);
          matched = test(element);
        }
        reading.open(name, attributes, matched);
      },
      ontext: (data) => reading.text(data),
      onclosetag: (name) => {
        // Later elements look back at this one and its ancestors, never inside it.
        if (test !== null) (open.pop() as StreamedElement).children = [];
        reading.close(name);
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return reading.finish();
}

/** Reads a parsed document as the parser would have given it. */
function replay(node: AnyNode, reading: PageReading, matches: ReadonlySet<AnyNode>): void {
  if (isText(node)) {
    reading.text(node.data);
  } else if (isTag(node)) {
    reading.open(node.name, node.attribs, matches.has(node));
    for (const child of node.children) replay(child, reading, matches);
    reading.close(node.name);
  } else if (hasChildren(node)) {
    for (const child of node.children) replay(child, reading, matches);
  }
}

/** Throws when the parser cannot read `selector`. */
export function compileSelector(selector: string): void {
  compile(selector);
}

/** Whitespace that collapsing changes: two in a row, or any but a space. */
const UNCOLLAPSED = /\s\s|[^\S ]/;

/** Most lines need no collapsing: finding that out is cheaper than replacing nothing. */
function collapse(text: string): string {
  return (UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}
