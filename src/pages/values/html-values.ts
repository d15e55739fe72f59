import {
  collapse,
  compiledSelector,
  VisibleLines,
  type DocumentListener,
} from '../reading/html-text';
import type { ElementMatcher, PageSelector } from '../reading/page-selector';
import type { PageValueTarget } from '../page.types';
import { MAX_JSON_LD_BLOCKS, MAX_JSON_LD_CHARS } from './structured-data';

/** Microdata `price` and `availability` properties kept per page at most. */
const MAX_MICRODATA = 100;
/** A microdata price's text is read up to this many characters. */
const MAX_MICRODATA_TEXT = 200;
const META_PRICES = ['product:price:amount', 'og:price:amount'];

/** What an HTML document holds for its values, read in the pass that reads its text. */
export interface HtmlValueSources {
  /** For each value selector, the visible text of its first match; null when none matched. */
  selected: Map<string, string | null>;
  /** The text of each `<script type="application/ld+json">`; longer ones are cut, so skipped. */
  jsonLd: string[];
  /** Each `itemprop="price"`: its `content`, else its text. */
  microdataPrices: string[];
  /** Each `itemprop="availability"`: its `href`, else its `content`. */
  microdataAvailabilities: string[];
  /** `<meta property="product:price:amount">` and `og:price:amount`, by property. */
  metaPrices: Map<string, string>;
}

/** The first match of one selector, read as a page's text is (docs/pages.md, "Reading the text"). */
class FirstMatch {
  private depth = 0;
  private lines: VisibleLines | null = null;
  text: string | null = null;

  constructor(private readonly matcher: ElementMatcher | null) {}

  open(name: string, attributes: Record<string, string>): void {
    const matched = this.matcher?.open(name, attributes) ?? false;
    if (this.text !== null) return;
    if (this.depth > 0) {
      this.depth += 1;
    } else if (matched) {
      this.depth = 1;
      this.lines = new VisibleLines();
    } else {
      return;
    }
    this.lines?.open(name, attributes);
  }

  textOf(data: string): void {
    if (this.depth > 0) this.lines?.text(data);
  }

  close(name: string): void {
    this.matcher?.close();
    if (this.depth === 0 || this.lines === null) return;
    this.lines.close(name);
    this.depth -= 1;
    if (this.depth === 0) this.text = this.lines.finish();
  }
}

/** An element whose text is being collected, and where it goes. */
interface Collecting {
  depth: number;
  text: string;
  limit: number;
  done: (text: string) => void;
}

/**
 * Reads what an HTML document holds for a page's values as its elements come (docs/pages.md,
 * "Values read from pages"), beside the reading of its text: one parse serves both.
 */
export class HtmlValueScanner implements DocumentListener {
  /** Whether a value selector needs to know which elements are last children. */
  readonly readsLastChild: boolean;
  private readonly compiled: Map<string, PageSelector | null>;
  private readonly matches = new Map<string, FirstMatch>();
  private readonly collecting: Collecting[] = [];
  private readonly sources: HtmlValueSources = {
    selected: new Map(),
    jsonLd: [],
    microdataPrices: [],
    microdataAvailabilities: [],
    metaPrices: new Map(),
  };

  constructor(values: readonly PageValueTarget[]) {
    const selectors = values.flatMap((value) =>
      value.selector === undefined ? [] : [value.selector],
    );
    this.compiled = new Map(selectors.map((selector) => [selector, compiledSelector(selector)]));
    this.readsLastChild = [...this.compiled.values()].some((page) => page?.readsLastChild);
  }

  /** Starts a document; `lastChildren` as `PageSelector.matcher` takes it. */
  start(lastChildren: Uint8Array | null): void {
    for (const [selector, page] of this.compiled) {
      this.matches.set(selector, new FirstMatch(page?.matcher(lastChildren) ?? null));
    }
  }

  open(name: string, attributes: Record<string, string>): void {
    for (const match of this.matches.values()) match.open(name, attributes);
    for (const collecting of this.collecting) collecting.depth += 1;
    if (name === 'script') {
      if (isJsonLd(attributes.type) && this.sources.jsonLd.length < MAX_JSON_LD_BLOCKS) {
        this.collect(MAX_JSON_LD_CHARS + 1, (text) => this.sources.jsonLd.push(text));
      }
      return;
    }
    if (name === 'meta') {
      const property = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
      const content = attributes.content;
      if (
        META_PRICES.includes(property) &&
        content !== undefined &&
        !this.sources.metaPrices.has(property)
      ) {
        this.sources.metaPrices.set(property, content);
      }
    }
    const properties = (attributes.itemprop ?? '').split(/\s+/);
    const prices = this.sources.microdataPrices;
    // Prices collected and being collected count alike: nested price elements stay bounded.
    if (properties.includes('price') && prices.length + this.collecting.length < MAX_MICRODATA) {
      if (attributes.content !== undefined) prices.push(attributes.content);
      else this.collect(MAX_MICRODATA_TEXT, (text) => prices.push(collapse(text)));
    }
    const availability = attributes.href ?? attributes.content;
    if (
      properties.includes('availability') &&
      availability !== undefined &&
      this.sources.microdataAvailabilities.length < MAX_MICRODATA
    ) {
      this.sources.microdataAvailabilities.push(availability);
    }
  }

  text(data: string): void {
    for (const match of this.matches.values()) match.textOf(data);
    for (const collecting of this.collecting) {
      if (collecting.text.length < collecting.limit) {
        collecting.text += data.slice(0, collecting.limit - collecting.text.length);
      }
    }
  }

  close(name: string): void {
    for (const match of this.matches.values()) match.close(name);
    for (let index = this.collecting.length - 1; index >= 0; index--) {
      const collecting = this.collecting[index];
      collecting.depth -= 1;
      if (collecting.depth > 0) continue;
      this.collecting.splice(index, 1);
      collecting.done(collecting.text);
    }
  }

  finish(): HtmlValueSources {
    for (const [selector, match] of this.matches) this.sources.selected.set(selector, match.text);
    return this.sources;
  }

  /** Collects the text of the element just opened, up to `limit` characters. */
  private collect(limit: number, done: (text: string) => void): void {
    this.collecting.push({ depth: 1, text: '', limit, done });
  }
}

function isJsonLd(type: string | undefined): boolean {
  return type?.split(';')[0].trim().toLowerCase() === 'application/ld+json';
}
