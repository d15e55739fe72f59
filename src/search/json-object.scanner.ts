/** Counts the characters a search fed to its parses, so a test can bound the work. */
export interface ScanCounter {
  steps: number;
}

/** Where a JSON object lies in a text: `text.slice(start, end)`. */
export interface JsonObjectLocation {
  start: number;
  end: number;
}

// What a parse expects next.
const KEY_OR_CLOSE = 0; // after `{`
const KEY = 1; // after `,` in an object
const COLON = 2;
const VALUE = 3; // after `:`, or `,` in an array
const VALUE_OR_CLOSE = 4; // after `[`
const AFTER_VALUE = 5;
const IN_STRING = 6;
const ESCAPE = 7;
const UNICODE_ESCAPE = 8;
const NUMBER_SIGN = 9;
const NUMBER_ZERO = 10;
const NUMBER_INTEGER = 11;
const NUMBER_DOT = 12;
const NUMBER_FRACTION = 13;
const NUMBER_E = 14;
const NUMBER_EXPONENT_SIGN = 15;
const NUMBER_EXPONENT = 16;
const LITERAL = 17;

const FAILED = 0;
const CONTINUES = 1;
/** Continues, having opened an object at this character. */
const OPENED_OBJECT = 2;
/** The outermost object closed at this character. */
const FINISHED = 3;

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isWhitespace = (code: number) =>
  code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
const isHexDigit = (code: number) =>
  isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
/** `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`: what may follow a backslash, `u` aside. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

interface Frame {
  isObject: boolean;
  start: number;
}

/**
 * One JSON parse (the grammar `JSON.parse` accepts) of an object that opened at `start`, fed one
 * character at a time. Every object nested in it is itself a parse that opened later; it runs in
 * step with this one until it closes, so it is tracked here as a frame instead of separately.
 */
class JsonObjectScan {
  private readonly frames: Frame[];
  private mode = KEY_OR_CLOSE;
  private inKey = false;
  private literal = '';
  private pending = 0;
  /** Start of the object the last character closed, or -1. */
  closedStart = -1;

  constructor(readonly start: number) {
    this.frames = [{ isObject: true, start }];
  }

  feed(code: number, index: number): number {
    this.closedStart = -1;
    switch (this.mode) {
      case IN_STRING:
        if (code === 0x22) {
          this.mode = this.inKey ? COLON : AFTER_VALUE;
        } else if (code === 0x5c) {
          this.mode = ESCAPE;
        } else if (code < 0x20) {
          return FAILED;
        }
        return CONTINUES;
      case ESCAPE:
        if (code === 0x75) {
          this.mode = UNICODE_ESCAPE;
          this.pending = 4;
          return CONTINUES;
        }
        if (!SIMPLE_ESCAPES.has(code)) return FAILED;
        this.mode = IN_STRING;
        return CONTINUES;
      case UNICODE_ESCAPE:
        if (!isHexDigit(code)) return FAILED;
        if (--this.pending === 0) this.mode = IN_STRING;
        return CONTINUES;
      case LITERAL:
        if (code !== this.literal.charCodeAt(this.literal.length - this.pending)) return FAILED;
        if (--this.pending === 0) this.mode = AFTER_VALUE;
        return CONTINUES;
      case NUMBER_SIGN:
        if (!isDigit(code)) return FAILED;
        this.mode = code === 0x30 ? NUMBER_ZERO : NUMBER_INTEGER;
        return CONTINUES;
      case NUMBER_ZERO:
      case NUMBER_INTEGER:
      case NUMBER_FRACTION:
        if (isDigit(code) && this.mode !== NUMBER_ZERO) return CONTINUES;
        if (code === 0x2e && this.mode !== NUMBER_FRACTION) this.mode = NUMBER_DOT;
        else if (code === 0x65 || code === 0x45) this.mode = NUMBER_E;
        else return this.endNumber(code, index);
        return CONTINUES;
      case NUMBER_DOT:
        if (!isDigit(code)) return FAILED;
        this.mode = NUMBER_FRACTION;
        return CONTINUES;
      case NUMBER_E:
        if (code === 0x2b || code === 0x2d) this.mode = NUMBER_EXPONENT_SIGN;
        else if (isDigit(code)) this.mode = NUMBER_EXPONENT;
        else return FAILED;
        return CONTINUES;
      case NUMBER_EXPONENT_SIGN:
        if (!isDigit(code)) return FAILED;
        this.mode = NUMBER_EXPONENT;
        return CONTINUES;
      case NUMBER_EXPONENT:
        return isDigit(code) ? CONTINUES : this.endNumber(code, index);
      case KEY_OR_CLOSE:
        if (code === 0x7d) return this.close();
        return this.expectKey(code);
      case KEY:
        return this.expectKey(code);
      case COLON:
        if (isWhitespace(code)) return CONTINUES;
        if (code !== 0x3a) return FAILED;
        this.mode = VALUE;
        return CONTINUES;
      case VALUE_OR_CLOSE:
        if (code === 0x5d) return this.close();
        return this.beginValue(code, index);
      case VALUE:
        return this.beginValue(code, index);
      default:
        return this.afterValue(code);
    }
  }

  private expectKey(code: number): number {
    if (isWhitespace(code)) return CONTINUES;
    if (code !== 0x22) return FAILED;
    this.mode = IN_STRING;
    this.inKey = true;
    return CONTINUES;
  }

  private beginValue(code: number, index: number): number {
    if (isWhitespace(code)) return CONTINUES;
    switch (code) {
      case 0x7b:
        this.frames.push({ isObject: true, start: index });
        this.mode = KEY_OR_CLOSE;
        return OPENED_OBJECT;
      case 0x5b:
        this.frames.push({ isObject: false, start: index });
        this.mode = VALUE_OR_CLOSE;
        return CONTINUES;
      case 0x22:
        this.mode = IN_STRING;
        this.inKey = false;
        return CONTINUES;
      case 0x2d:
        this.mode = NUMBER_SIGN;
        return CONTINUES;
      case 0x74:
        return this.beginLiteral('true');
      case 0x66:
        return this.beginLiteral('false');
      case 0x6e:
        return this.beginLiteral('null');
      default:
        if (!isDigit(code)) return FAILED;
        this.mode = code === 0x30 ? NUMBER_ZERO : NUMBER_INTEGER;
        return CONTINUES;
    }
  }

  private beginLiteral(literal: string): number {
    this.literal = literal;
    this.pending = literal.length - 1;
    this.mode = LITERAL;
    return CONTINUES;
  }

  /** A number ends at the first character that cannot extend it, which is then read as such. */
  private endNumber(code: number, index: number): number {
    this.mode = AFTER_VALUE;
    return this.feed(code, index);
  }

  private afterValue(code: number): number {
    if (isWhitespace(code)) return CONTINUES;
    const inObject = this.frames[this.frames.length - 1].isObject;
    if (code === 0x2c) {
      this.mode = inObject ? KEY : VALUE;
      return CONTINUES;
    }
    if (code === (inObject ? 0x7d : 0x5d)) return this.close();
    return FAILED;
  }

  private close(): number {
    const frame = this.frames.pop()!;
    if (frame.isObject) this.closedStart = frame.start;
    if (this.frames.length === 0) return FINISHED;
    this.mode = AFTER_VALUE;
    return CONTINUES;
  }
}

/**
 * The first `{` of `text` that opens a valid JSON object, and where that object ends, in one
 * pass: in time linear in the text, whatever it holds (docs/architecture.md, "Provider calls").
 *
 * Trying each `{` in turn and reading on until its object closes or breaks costs a rescan of the
 * rest of the text per brace. Instead every candidate is read at once, and there are never more
 * than two parses in flight: a `{` that an ongoing parse reads as a nested value runs in step with
 * it (a frame of that parse), one that breaks a parse replaces it, and one inside a parse's string
 * starts a parse that stays outside strings exactly where the first is inside one (a backslash,
 * the only character that could make them differ, ends the one outside strings). So each
 * character is fed to at most two parses.
 */
export function locateJsonObject(text: string, counter?: ScanCounter): JsonObjectLocation | null {
  let scans: JsonObjectScan[] = [];
  let found: JsonObjectLocation | null = null;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (counter !== undefined) counter.steps += 1 + scans.length;
    let opened = false;
    const ongoing: JsonObjectScan[] = [];
    for (const scan of scans) {
      const outcome = scan.feed(code, index);
      if (scan.closedStart !== -1 && (found === null || scan.closedStart < found.start)) {
        found = { start: scan.closedStart, end: index + 1 };
      }
      if (outcome === OPENED_OBJECT) opened = true;
      if (outcome === CONTINUES || outcome === OPENED_OBJECT) ongoing.push(scan);
    }
    scans = ongoing;
    if (code === 0x7b && !opened) scans.push(new JsonObjectScan(index));
    // Done once no parse that started earlier than the object found can still succeed.
    const earliest = found;
    if (earliest !== null && scans.every((scan) => scan.start > earliest.start)) return earliest;
  }
  return found;
}
