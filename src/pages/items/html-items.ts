import { VisibleLines } from '../reading/html-text';
import { MAX_ITEMS, readItem, type ReadItem } from './page-items';

/**
 * The items of an HTML list (docs/pages.md, "Items and feeds"), read in the pass that reads the
 * page's text: each element matching the items selector (one inside another counts once) is an
 * item, its title its visible text with its lines joined by a space, its link the `href` of the
 * element itself when it is an `a` with one, else of its first `a[href]`, resolved against
 * `base` (the page's final URL). At most MAX_ITEMS are read.
 */
export class HtmlItems {
  private readonly items: ReadItem[] = [];
  /** Elements that matched, read or not. */
  private matched = 0;
  /** Open elements since the item being read (0: outside every item). */
  private depth = 0;
  private lines: VisibleLines | null = null;
  private href: string | null = null;

  constructor(private readonly base: string) {}

  open(name: string, attributes: Record<string, string>, matched: boolean): void {
    if (this.depth > 0) {
      this.depth += 1;
    } else if (matched) {
      this.matched += 1;
      this.depth = 1;
      this.href = null;
      this.lines = this.items.length < MAX_ITEMS ? new VisibleLines() : null;
    } else {
      return;
    }
    if (this.href === null && name === 'a' && attributes.href !== undefined) {
      this.href = attributes.href;
    }
    this.lines?.open(name, attributes);
  }

  text(data: string): void {
    if (this.depth > 0) this.lines?.text(data);
  }

  close(name: string): void {
    if (this.depth === 0) return;
    this.lines?.close(name);
    this.depth -= 1;
    if (this.depth > 0 || this.lines === null) return;
    const title = this.lines.finish().replaceAll('\n', ' ');
    const item = readItem(title, this.href, this.base);
    if (item !== null) this.items.push(item);
    this.lines = null;
  }

  /** The items read; null when nothing matched the selector. */
  finish(): ReadItem[] | null {
    return this.matched === 0 ? null : this.items;
  }
}
