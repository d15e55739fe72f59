import { compile, type Options } from 'css-select';
import { isTraversal, parse, SelectorType, type Selector, type TraversalType } from 'css-what';
import nthCheck, { parse as parseNth } from 'nth-check';

const MAX_SELECTORS = 10;
const SUPPORTED =
  'use type, class, id and attribute selectors, combinators, :first-child, :last-child, ' +
  ':nth-child() and :not()';
const NOT_ARGUMENT =
  ':not() takes one simple selector: a type, class, id or attribute selector, :first-child, ' +
  ':last-child or :nth-child()';
const NTH_ARGUMENT = ':nth-child() takes an+b, odd or even';

/** Why a selector is refused; its message is the reason given to the user. */
export class SelectorError extends Error {}

/**
 * An element as a compound selector sees it: its name, its attributes, its place among its
 * parent's element children (`index`, from 0) and whether it is the last of them.
 */
interface Candidate {
  name: string;
  attributes: Record<string, string>;
  index: number;
  last: boolean;
}

/**
 * css-select's view of a candidate, for compound selectors only: the combinators between them
 * are matched here, so css-select never walks a document.
 */
const CANDIDATE: NonNullable<Options<Candidate, Candidate>['adapter']> = {
  isTag: (_node): _node is Candidate => true,
  getAttributeValue: (elem, name) =>
    Object.hasOwn(elem.attributes, name) ? elem.attributes[name] : undefined,
  hasAttrib: (elem, name) => Object.hasOwn(elem.attributes, name),
  getName: (elem) => elem.name,
  getParent: () => null,
  getChildren: () => [],
  getSiblings: (node) => [node],
  getText: () => '',
  removeSubsets: (nodes) => nodes,
};

/** Where the state a compound reads is kept: in the parent's bits or the previous sibling's. */
type Source = 'parent' | 'sibling';

const SOURCES: Partial<Record<TraversalType, Source>> = {
  [SelectorType.Child]: 'parent',
  [SelectorType.Descendant]: 'parent',
  [SelectorType.Adjacent]: 'sibling',
  [SelectorType.Sibling]: 'sibling',
};

/** One compound selector of a complex one, with what links it to its neighbours. */
interface Step {
  test: (candidate: Candidate) => boolean;
  /** The compound to its left: its slot, and whose bits must hold it; null for the first. */
  left: { slot: number; source: Source } | null;
  /** Its own slot, read by the compound to its right; -1 for the last (whose match is a match). */
  slot: number;
  /**
   * Whether its slot also holds when it holds in the parent (a descendant combinator follows) or
   * in the previous sibling (`~` follows).
   */
  inherits: Source | null;
}

/**
 * A selector of the linear subset pages accept (docs/pages.md, "Selectors"): type, class, id and
 * attribute selectors, the four combinators, `:first-child`, `:last-child`, `:nth-child(an+b)`
 * and `:not()` of one of those, at most 10 in a list. Throws a SelectorError saying why for
 * anything else.
 */
export class PageSelector {
  private readonly steps: Step[] = [];
  private readonly slots: number;
  /** Whether it needs to know which elements are last children before reading a document. */
  readonly readsLastChild: boolean;

  constructor(selector: string) {
    const selectors = parsed(selector);
    /** Each `:nth-child()` formula, compiled once rather than for each element it tests. */
    const nths = new Map<string, (index: number) => boolean>();
    const options: Options<Candidate, Candidate> = {
      adapter: CANDIDATE,
      pseudos: {
        'first-child': (elem: Candidate) => elem.index === 0,
        'last-child': (elem: Candidate) => elem.last,
        'nth-child': (elem: Candidate, formula?: string | null) => {
          const key = formula as string;
          let test = nths.get(key);
          if (test === undefined) nths.set(key, (test = nthCheck(key)));
          return test(elem.index);
        },
      },
    };
    let slots = 0;
    for (const tokens of selectors) {
      let left: Step['left'] = null;
      for (const { tokens: compound, after } of compoundsOf(tokens)) {
        const slot = after === undefined ? -1 : slots++;
        this.steps.push({
          test: compiled(compound, options),
          left,
          slot,
          inherits:
            after === SelectorType.Descendant
              ? 'parent'
              : after === SelectorType.Sibling
                ? 'sibling'
                : null,
        });
        if (after !== undefined) left = { slot, source: SOURCES[after] as Source };
      }
    }
    this.slots = slots;
    this.readsLastChild = selectors.some((tokens) => tokens.some(readsLastChild));
  }

  /**
   * A matcher for one document. `lastChildren` (needed when `readsLastChild`) holds 1 for each
   * element, in document order, that is its parent's last element child.
   */
  matcher(lastChildren: Uint8Array | null): ElementMatcher {
    return new ElementMatcher(this.steps, Math.ceil(this.slots / 32), lastChildren);
  }
}

/**
 * Tests each element as it opens, in O(1) per compound: each element keeps one bit per compound
 * that has another to its right, saying whether the selector up to that compound holds there
 * (for a descendant combinator: there or in an ancestor; for `~`: there or in an earlier
 * sibling). An element reads its parent's bits and its previous sibling's, and only those of
 * open elements and of the last closed child of each are kept.
 */
export class ElementMatcher {
  /** The bits of each open element, the document's first, `words` numbers each. */
  private readonly own: number[];
  /** For each open element, the bits of its last closed child: its next child's previous sibling. */
  private readonly previous: number[];
  /** For each open element, its element children so far. */
  private readonly children = [0];
  private elements = 0;
  private readonly candidate: Candidate = { name: '', attributes: {}, index: 0, last: false };

  constructor(
    private readonly steps: readonly Step[],
    private readonly words: number,
    private readonly lastChildren: Uint8Array | null,
  ) {
    this.own = new Array<number>(words).fill(0);
    this.previous = new Array<number>(words).fill(0);
  }

  /** Whether the element opening now matches. */
  open(name: string, attributes: Record<string, string>): boolean {
    const parent = this.children.length - 1;
    const candidate = this.candidate;
    candidate.name = name;
    candidate.attributes = attributes;
    candidate.index = this.children[parent]++;
    candidate.last = this.lastChildren?.[this.elements] === 1;
    this.elements += 1;
    const from = parent * this.words;
    const to = from + this.words;
    for (let word = 0; word < this.words; word++) {
      this.own.push(0);
      this.previous.push(0);
    }
    this.children.push(0);
    let matched = false;
    for (const step of this.steps) {
      let holds =
        (step.left === null || this.holds(step.left.source, from, step.left.slot)) &&
        step.test(candidate);
      if (step.slot < 0) {
        matched ||= holds;
        continue;
      }
      if (!holds && step.inherits !== null) holds = this.holds(step.inherits, from, step.slot);
      if (holds) this.own[to + (step.slot >>> 5)] |= 1 << (step.slot & 31);
    }
    return matched;
  }

  /** The element opened last closes: its bits are now its parent's last closed child's. */
  close(): void {
    const level = this.children.length - 1;
    const from = level * this.words;
    for (let word = 0; word < this.words; word++) {
      this.previous[from - this.words + word] = this.own[from + word];
    }
    for (let word = 0; word < this.words; word++) {
      this.own.pop();
      this.previous.pop();
    }
    this.children.pop();
  }

  private holds(source: Source, from: number, slot: number): boolean {
    const bits = source === 'parent' ? this.own : this.previous;
    return ((bits[from + (slot >>> 5)] >>> (slot & 31)) & 1) === 1;
  }
}

/** Why `selector` is not one pages accept (docs/pages.md, "Selectors"), or null when it is. */
export function selectorProblem(selector: string): string | null {
  try {
    new PageSelector(selector);
    return null;
  } catch (error) {
    if (error instanceof SelectorError) return error.message;
    throw error;
  }
}

/** The selector's complex selectors, each checked against the linear subset. */
function parsed(selector: string): Selector[][] {
  let selectors: Selector[][];
  try {
    selectors = parse(selector);
  } catch {
    throw new SelectorError('not a valid CSS selector');
  }
  if (selectors.length > MAX_SELECTORS) {
    throw new SelectorError(`at most ${MAX_SELECTORS} selectors in a list`);
  }
  for (const tokens of selectors) {
    if (tokens.length === 0) throw new SelectorError('not a valid CSS selector');
    if (isTraversal(tokens[0]) || isTraversal(tokens[tokens.length - 1])) {
      throw new SelectorError('must not start or end with a combinator');
    }
    tokens.forEach((token) => checkToken(token, false));
  }
  return selectors;
}

function checkToken(token: Selector, inNot: boolean): void {
  switch (token.type) {
    case SelectorType.Tag:
    case SelectorType.Universal:
    case SelectorType.Attribute:
      if (token.namespace !== null) {
        throw new SelectorError(`the namespace ${token.namespace}| is not supported; ${SUPPORTED}`);
      }
      return;
    case SelectorType.PseudoElement:
      throw new SelectorError(`::${token.name} is not supported; ${SUPPORTED}`);
    case SelectorType.Pseudo:
      checkPseudo(token.name, token.data, inNot);
      return;
    case SelectorType.Parent:
      throw new SelectorError(`the combinator < is not supported; ${SUPPORTED}`);
    case SelectorType.ColumnCombinator:
      throw new SelectorError(`the combinator || is not supported; ${SUPPORTED}`);
    default:
      return;
  }
}

function checkPseudo(name: string, data: Selector[][] | string | null, inNot: boolean): void {
  if (name === 'first-child' || name === 'last-child') {
    if (data !== null) throw new SelectorError(`:${name} takes no argument`);
  } else if (name === 'nth-child') {
    if (typeof data !== 'string') throw new SelectorError(NTH_ARGUMENT);
    try {
      parseNth(data);
    } catch {
      throw new SelectorError(NTH_ARGUMENT);
    }
  } else if (name === 'not') {
    const simple = Array.isArray(data) && data.length === 1 && data[0].length === 1;
    if (inNot || !simple || isTraversal(data[0][0])) throw new SelectorError(NOT_ARGUMENT);
    checkToken(data[0][0], true);
  } else {
    throw new SelectorError(`:${name} is not supported; ${SUPPORTED}`);
  }
}

/** css-select's test of one compound selector, given the pseudo-classes read here. */
function compiled(
  compound: Selector[],
  options: Options<Candidate, Candidate>,
): (candidate: Candidate) => boolean {
  try {
    return compile([compound], options);
  } catch {
    throw new SelectorError('not a valid CSS selector');
  }
}

function readsLastChild(token: Selector): boolean {
  if (token.type !== SelectorType.Pseudo) return false;
  return (
    token.name === 'last-child' || (Array.isArray(token.data) && token.data[0].some(readsLastChild))
  );
}

/** A complex selector's compound selectors, each with the combinator after it. */
function compoundsOf(tokens: Selector[]): { tokens: Selector[]; after?: TraversalType }[] {
  const compounds: { tokens: Selector[]; after?: TraversalType }[] = [{ tokens: [] }];
  for (const token of tokens) {
    if (isTraversal(token)) {
      compounds[compounds.length - 1].after = token.type;
      compounds.push({ tokens: [] });
    } else {
      compounds[compounds.length - 1].tokens.push(token);
    }
  }
  return compounds;
}
