import {
  ProviderError,
  type GroundingSource,
  type SuggestRequest,
  type SuggestResult,
} from './search-provider';
import { locateJsonObject, type ScanCounter } from './json-object.scanner';
import { DEFAULT_TASK_NAME, type NotifyBehavior } from './search.types';

/** Every unusable reply fails with this prefix, so an execution's error_message reads the same. */
export const UNPARSEABLE_REPLY_PREFIX = "Could not parse the model's reply";

export const FALLBACK_SCHEDULE = '0 9 * * *';
export const FALLBACK_NOTIFY_BEHAVIOR: Exclude<NotifyBehavior, 'on_change'> = 'once';
export const MAX_NAME_LENGTH = 200;
export const MIN_TEXT_LENGTH = 10;
export const MAX_TEXT_LENGTH = 500;
/**
 * The most of a model's reply text that is searched for its JSON (docs/architecture.md, "Provider
 * calls").
 */
export const MAX_REPLY_TEXT_BYTES = 256 * 1024;
export const REPLY_TOO_LARGE_MESSAGE = 'Provider reply too large';

export function unparseable(reason: string): ProviderError {
  return new ProviderError(`${UNPARSEABLE_REPLY_PREFIX}: ${reason}`);
}

export function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/**
 * The first `{...}` in `text` that is a JSON object, or null. Tolerates a Markdown fence and
 * prose around it, braces in that prose included; a greedy regex would swallow everything up to
 * the last brace of the text instead. Linear in the text (see `locateJsonObject`).
 */
export function findFirstJsonObject(
  text: string,
  counter?: ScanCounter,
): Record<string, unknown> | null {
  const location = locateJsonObject(text, counter);
  if (location === null) return null;
  try {
    return asRecord(JSON.parse(text.slice(location.start, location.end)));
  } catch {
    // The scan reads JSON as JSON.parse does; should they ever differ, there is no object.
    return null;
  }
}

export function hostnameOf(uri: string): string {
  try {
    return new URL(uri).hostname || uri;
  } catch {
    return uri;
  }
}

/**
 * Whether a link to `uri` is a web page. Sources end up as links in the console, emails, chat
 * messages and RSS, so a `javascript:` or `data:` URI must never get that far.
 * The WHATWG parser is the one browsers use, so `java\tscript:` is read as they would read it.
 */
export function isWebUri(uri: string): boolean {
  try {
    const { protocol } = new URL(uri);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Sources as the API shows them: `http:` and `https:` URIs only, one per uri, trimmed, a title
 * (the host when none is given).
 */
export function uniqueSources(
  candidates: Array<{ uri: unknown; title?: unknown }>,
): GroundingSource[] {
  const sources = new Map<string, GroundingSource>();
  for (const candidate of candidates) {
    const uri = typeof candidate.uri === 'string' ? candidate.uri.trim() : '';
    if (uri === '' || sources.has(uri) || !isWebUri(uri)) continue;
    const title = typeof candidate.title === 'string' ? candidate.title.trim() : '';
    sources.set(uri, { uri, title: title || hostnameOf(uri) });
  }
  return [...sources.values()];
}

/** Over `MAX_REPLY_TEXT_BYTES` in UTF-8; the length bounds the bytes, so most texts need no count. */
function isTooLarge(text: string): boolean {
  if (text.length <= MAX_REPLY_TEXT_BYTES / 3) return false;
  return (
    text.length > MAX_REPLY_TEXT_BYTES || Buffer.byteLength(text, 'utf8') > MAX_REPLY_TEXT_BYTES
  );
}

/**
 * The JSON object of a reply's text; `hint` explains a missing object when the wire says why
 * (a reply cut off by the token limit is the usual cause).
 */
function replyObject(text: string, hint: string): Record<string, unknown> {
  if (isTooLarge(text)) throw new ProviderError(REPLY_TOO_LARGE_MESSAGE);
  if (text.trim() === '') throw unparseable(`the reply has no text${hint}`);
  const object = findFirstJsonObject(text);
  if (object === null) throw unparseable(`no JSON object found${hint}`);
  return object;
}

function coerceBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const normalized = value.trim().toLowerCase();
    if (normalized === 'true') return true;
    if (normalized === 'false') return false;
  }
  return null;
}

/** A future instant, or null: the scheduler then falls back to its own interval. */
export function parseNextCheckAt(value: unknown, now: Date): Date | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = new Date(value.trim());
  if (Number.isNaN(parsed.getTime()) || parsed.getTime() <= now.getTime()) return null;
  return parsed;
}

/** The check verdict of a model's reply text, before the adapter adds sources and usage. */
export interface CheckVerdict {
  conditionMet: boolean;
  answer: string;
  reasoning: string;
  currentState: Record<string, unknown>;
  nextCheckAt: Date | null;
  /** `values` as written (checked against the task's schema later, by `SearchProvider.check`). */
  values: unknown;
}

/** Reads a check reply; throws `ProviderError` when it cannot be used. */
export function parseCheckText(text: string, now: Date, hint = ''): CheckVerdict {
  const object = replyObject(text, hint);
  const conditionMet = coerceBoolean(object.condition_met);
  if (conditionMet === null) throw unparseable('"condition_met" must be true or false');
  if (typeof object.answer !== 'string') throw unparseable('"answer" must be a string');
  if (object.reasoning !== undefined && object.reasoning !== null) {
    if (typeof object.reasoning !== 'string') throw unparseable('"reasoning" must be a string');
  }
  return {
    conditionMet,
    answer: object.answer,
    reasoning: typeof object.reasoning === 'string' ? object.reasoning : '',
    currentState: asRecord(object.current_state) ?? {},
    nextCheckAt: parseNextCheckAt(object.next_check_at, now),
    values: object.values,
  };
}

/** `source_ids` of a model judging numbered results (SearXNG): the numbers it cited, if any. */
export function citedResultIds(text: string): number[] {
  if (isTooLarge(text)) return [];
  const ids = findFirstJsonObject(text)?.source_ids;
  return Array.isArray(ids) ? ids.map(Number).filter((id) => Number.isInteger(id)) : [];
}

interface CronFieldRange {
  min: number;
  max: number;
  /** Month and weekday names cron accepts in place of numbers. */
  names?: string[];
}

const CRON_FIELD_RANGES: CronFieldRange[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  {
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  // 7 is Sunday too, as in Vixie cron.
  { min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

function cronValue(token: string, range: CronFieldRange): number {
  if (/^\d+$/.test(token)) return Number(token);
  const nameIndex = range.names?.indexOf(token.toUpperCase()) ?? -1;
  return nameIndex === -1 ? Number.NaN : nameIndex + range.min;
}

function isValidCronItem(item: string, range: CronFieldRange): boolean {
  const match = /^(\*|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?)(?:\/(\d+))?$/.exec(item);
  if (match === null) return false;
  const [, base, step] = match;
  if (step !== undefined && (Number(step) < 1 || Number(step) > range.max)) return false;
  if (base === '*') return true;
  const [first, last] = base.split('-');
  const low = cronValue(first, range);
  const high = last === undefined ? low : cronValue(last, range);
  const inRange = (value: number) => value >= range.min && value <= range.max;
  return inRange(low) && inRange(high) && low <= high;
}

/** A standard 5-field cron expression (minute hour day-of-month month day-of-week). */
export function isFiveFieldCron(expression: string): boolean {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return false;
  return fields.every((field, index) =>
    field.split(',').every((item) => isValidCronItem(item, CRON_FIELD_RANGES[index])),
  );
}

/** Cuts at a word boundary when one is near the limit, so a clamp does not leave half a word. */
export function truncateText(value: string, maxLength: number): string {
  if (value.length <= maxLength) return value;
  const cut = value.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace >= maxLength * 0.8 ? cut.slice(0, lastSpace) : cut).trimEnd();
}

function trimmedString(value: unknown): string {
  return typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '';
}

/**
 * The first candidate that is long enough, cut to `MAX_TEXT_LENGTH`; when none is, the longest
 * one followed by `padding` so the suggestion still passes the task's length rules.
 */
function clampText(candidates: string[], padding: string): string {
  const usable = candidates.find((candidate) => candidate.length >= MIN_TEXT_LENGTH);
  if (usable !== undefined) return truncateText(usable, MAX_TEXT_LENGTH);
  const longest = candidates.reduce((best, candidate) =>
    candidate.length > best.length ? candidate : best,
  );
  return truncateText(`${longest}${padding}`.trim(), MAX_TEXT_LENGTH);
}

/** Reads a suggestion reply and repairs what can be repaired. */
export function parseSuggestText(text: string, request: SuggestRequest, hint = ''): SuggestResult {
  const object = replyObject(text, hint);
  const suggestedQuery = trimmedString(object.search_query);
  if (suggestedQuery === '') throw unparseable('"search_query" must be a non-empty string');

  // A too-short query is usually a terse keyword; the user's own words carry more context.
  const searchQuery = clampText([suggestedQuery, trimmedString(request.prompt)], ' latest news');
  const conditionDescription = clampText(
    [trimmedString(object.condition_description), searchQuery],
    '',
  );
  const name = truncateText(trimmedString(object.name) || DEFAULT_TASK_NAME, MAX_NAME_LENGTH);

  const schedule = trimmedString(object.schedule);
  const notifyBehavior = trimmedString(object.notify_behavior).toLowerCase();
  return {
    name,
    search_query: searchQuery,
    condition_description: conditionDescription,
    schedule: isFiveFieldCron(schedule) ? schedule : FALLBACK_SCHEDULE,
    notify_behavior:
      notifyBehavior === 'once' || notifyBehavior === 'always'
        ? notifyBehavior
        : FALLBACK_NOTIFY_BEHAVIOR,
  };
}
