import { parseHtml, type HtmlHandler } from './html-parser';
import { PageSelector, SelectorError } from './page-selector';

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
export class VisibleLines {
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

/** A reading of its own in the same pass, told which elements match its selector. */
export interface MatchReader {
  open(name: string, attributes: Record<string, string>, matched: boolean): void;
  text(data: string): void;
  close(name: string): void;
}

/**
 * Another reading of a document in the same pass (a page's values): told every element and
 * text as the text's reading is, once it knows which elements are last children (when it asks).
 */
export interface DocumentListener extends HtmlHandler {
  readsLastChild: boolean;
  start(lastChildren: Uint8Array | null): void;
}

/**
 * An HTML document's visible text and `<title>` (docs/pages.md, "Reading the text"), and with
 * `selector` the text of its matches, in time linear in the document's size: one pass of the
 * parser, testing the selector as each element opens (docs/pages.md, "Selectors"), which
 * `listener` follows too. A selector that reads `:last-child` takes one more pass first, to
 * learn which elements are last children. A selector outside the subset pages accept (saved
 * before it was the rule) matches nothing. `also` reads the same pass with a selector of its
 * own (a list's items).
 */
export function scanHtml(
  html: string,
  selector?: string,
  also?: { selector: string; reader: MatchReader },
  listener?: DocumentListener,
): ScannedHtml {
  const reading = new PageReading();
  const compiled = selector === undefined ? null : compiledSelector(selector);
  const alsoCompiled = also === undefined ? null : compiledSelector(also.selector);
  const readsLastChild =
    compiled?.readsLastChild || alsoCompiled?.readsLastChild || listener?.readsLastChild;
  const last = readsLastChild ? lastChildren(html) : null;
  const matcher = compiled?.matcher(last) ?? null;
  const alsoMatcher = alsoCompiled?.matcher(last) ?? null;
  listener?.start(last);
  parseHtml(html, {
    open: (name, attributes) => {
      reading.open(name, attributes, matcher?.open(name, attributes) ?? false);
      also?.reader.open(name, attributes, alsoMatcher?.open(name, attributes) ?? false);
      listener?.open(name, attributes);
    },
    text: (data) => {
      reading.text(data);
      also?.reader.text(data);
      listener?.text(data);
    },
    close: (name) => {
      matcher?.close();
      reading.close(name);
      alsoMatcher?.close();
      also?.reader.close(name);
      listener?.close(name);
    },
  });
  return reading.finish();
}

/** `selector` compiled; null for a selector outside the subset. */
export function compiledSelector(selector: string): PageSelector | null {
  try {
    return new PageSelector(selector);
  } catch (error) {
    if (error instanceof SelectorError) return null;
    throw error;
  }
}

/** 1 for each element, in document order, that is its parent's last element child. */
function lastChildren(html: string): Uint8Array {
  let last = new Uint8Array(1024);
  let elements = 0;
  /** For each open element (the document first), its latest element child so far; -1: none. */
  const latest = [-1];
  parseHtml(html, {
    open: () => {
      if (elements === last.length) {
        const grown = new Uint8Array(last.length * 2);
        grown.set(last);
        last = grown;
      }
      const previous = latest[latest.length - 1];
      if (previous >= 0) last[previous] = 0;
      last[elements] = 1;
      latest[latest.length - 1] = elements;
      latest.push(-1);
      elements += 1;
    },
    text: () => {},
    close: () => latest.pop(),
  });
  return last;
}

/** Whitespace that collapsing changes: two in a row, or any but a space. */
const UNCOLLAPSED = /\s\s|[^\S ]/;

/** Most lines need no collapsing: finding that out is cheaper than replacing nothing. */
export function collapse(text: string): string {
  return (UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}
