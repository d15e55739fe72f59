import { compile, selectAll } from 'css-select';
import { isTag, isText, type AnyNode } from 'domhandler';
import { removeSubsets, uniqueSort } from 'domutils';
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
  text: string;
  title: string | null;
}

/** An HTML document's visible text and `<title>`, in one pass of the parser without a tree. */
export function scanHtml(html: string): ScannedHtml {
  const lines = new VisibleLines();
  let title: string | null = null;
  let titleText: string | null = null;
  const parser = new Parser(
    {
      onopentag: (name, attributes) => {
        if (name === 'title' && title === null) titleText = '';
        lines.open(name, attributes);
      },
      ontext: (data) => {
        if (titleText !== null) titleText += data;
        else lines.text(data);
      },
      onclosetag: (name) => {
        if (name === 'title' && titleText !== null) {
          title = collapse(titleText);
          titleText = null;
        }
        lines.close(name);
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return { text: lines.finish(), title: title || null };
}

/**
 * The visible text of every element `selector` matches, in document order (an element inside
 * another match counts once), each match on lines of its own; null when none matches.
 */
export function selectedText(html: string, selector: string): string | null {
  const matches = uniqueSort(removeSubsets(selectAll(selector, parseDocument(html))));
  if (matches.length === 0) return null;
  const lines = new VisibleLines();
  const walk = (node: AnyNode): void => {
    if (isText(node)) {
      lines.text(node.data);
    } else if (isTag(node)) {
      lines.open(node.name, node.attribs);
      node.children.forEach(walk);
      lines.close(node.name);
    }
  };
  for (const match of matches) {
    walk(match);
    lines.endLine();
  }
  return lines.finish();
}

/** Throws when the parser cannot read `selector`. */
export function compileSelector(selector: string): void {
  compile(selector);
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
