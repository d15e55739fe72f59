import type { ValidationIssue } from '../errors/validation-issue';

/** U+0000: PostgreSQL stores no text that holds it. */
const NUL = '\u0000';

type Location = string | number;

/** A value still to look at, and how it was reached (its path is built only when it is refused). */
interface Pending {
  value: unknown;
  key: Location;
  parent: Pending | null;
}

/**
 * One 422 issue (docs/api.md, "Errors") for each string of `value` that holds U+0000, a field name
 * included, at any depth, in document order; `loc` is where `value` stands (`["body"]`,
 * `["query"]`, or nothing for MCP arguments). Walked without recursion, so no depth can exhaust
 * the stack.
 */
export function nulCharacterIssues(value: unknown, loc: readonly Location[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Pending[] = [{ value, key: '', parent: null }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.parent !== null && typeof item.key === 'string' && item.key.includes(NUL))
      issues.push(refused(loc, item, 'Field names', item.key));
    if (typeof item.value === 'string') {
      if (item.value.includes(NUL)) issues.push(refused(loc, item, nameOf(item, loc), item.value));
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    // Pushed last to first, so they are taken first to last.
    if (Array.isArray(item.value)) {
      for (let index = item.value.length - 1; index >= 0; index--)
        stack.push({ value: item.value[index] as unknown, key: index, parent: item });
    } else {
      const keys = Object.keys(item.value);
      for (let index = keys.length - 1; index >= 0; index--)
        stack.push({
          value: (item.value as Record<string, unknown>)[keys[index]],
          key: keys[index],
          parent: item,
        });
    }
  }
  return issues;
}

function refused(
  loc: readonly Location[],
  item: Pending,
  subject: string,
  input: string,
): ValidationIssue {
  return {
    type: 'value_error',
    loc: [...loc, ...pathOf(item)],
    msg: `${subject} must not contain NUL characters`,
    input,
  };
}

function pathOf(item: Pending): Location[] {
  const path: Location[] = [];
  for (let at: Pending | null = item; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The field a string stands in, as a message names it: `name`, `url`, `tags[2]`; the last of `loc`
 * for the value itself (a path parameter's name).
 */
function nameOf(item: Pending, loc: readonly Location[]): string {
  let indexes = '';
  let at: Pending = item;
  for (; at.parent && typeof at.key === 'number'; at = at.parent) indexes = `[${at.key}]${indexes}`;
  const field = at.parent ? at.key : (loc[loc.length - 1] ?? 'Input');
  return `${field}${indexes}`;
}
