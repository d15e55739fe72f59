/** The console's only way to the service: the public REST API, with the key from the session. */
import { session } from './session';

/** A 4xx or 5xx answer: the API's `{"detail": ...}` (a string, or the 422 list form). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(describeDetail(detail, status));
  }
}

interface ValidationIssue {
  loc: unknown[];
  msg: string;
}

function isValidationIssues(detail: unknown): detail is ValidationIssue[] {
  return (
    Array.isArray(detail) &&
    detail.every((item) => typeof item === 'object' && item !== null && 'loc' in item)
  );
}

function describeDetail(detail: unknown, status: number): string {
  if (typeof detail === 'string') return detail;
  if (isValidationIssues(detail))
    return detail.map((issue) => `${issue.loc.slice(1).join('.')}: ${issue.msg}`).join('; ');
  return `The service answered ${status}`;
}

/** A 400 message's start, and the form field it names (the first that matches names it). */
export type FieldOfMessage = Array<[string, string]>;

/**
 * The 400 messages that name a field of a task, by how they start (docs/api.md, "Tasks"; an
 * alert policy's reason starts with its field, docs/attention.md).
 */
const TASK_FIELD_OF_MESSAGE: FieldOfMessage = [
  ['Invalid output_schema', 'output_schema'],
  ['Invalid evidence', 'evidence'],
  ['Invalid notification', 'notifications'],
  ['Invalid pages', 'pages'],
  ['Invalid page_rule', 'page_rule'],
  ['notify_behavior', 'notify_behavior'],
  ['Invalid state transition', 'state'],
  ['Invalid alert_policy: cooldown', 'alert_cooldown'],
  ['Invalid alert_policy: repeat_every', 'alert_repeat_every'],
  ['Invalid alert_policy: repeat_max', 'alert_repeat_max'],
  ['Invalid alert_policy', 'alert_policy'],
];

/**
 * The error of each field an error names (by `fieldOfMessage`, a task's fields unless given);
 * what names no field is under `form`.
 */
export function fieldErrors(
  error: unknown,
  fieldOfMessage: FieldOfMessage = TASK_FIELD_OF_MESSAGE,
): Record<string, string> {
  if (!(error instanceof ApiError)) return { form: String(error) };
  const { detail } = error;
  if (isValidationIssues(detail)) {
    const errors: Record<string, string> = {};
    for (const issue of detail) {
      const field =
        issue.loc[0] === 'body' && typeof issue.loc[1] === 'string' ? issue.loc[1] : 'form';
      errors[field] = errors[field] ? `${errors[field]}; ${issue.msg}` : issue.msg;
    }
    return errors;
  }
  const field = fieldOfMessage.find(([start]) => error.message.startsWith(start))?.[1];
  return { [field ?? 'form']: error.message };
}

/** One request with `key` (none: without credentials); an answer other than 2xx is an ApiError. */
export async function request<T>(
  method: string,
  path: string,
  body: unknown,
  key: string | null,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload: unknown =
    response.status === 204 ? undefined : await response.json().catch(() => null);
  if (response.ok) return payload as T;
  const detail =
    typeof payload === 'object' && payload !== null && 'detail' in payload ? payload.detail : null;
  throw new ApiError(response.status, detail);
}

/** A request with the session's key; a 401 ends the session. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  try {
    return await request<T>(method, path, body, session.key());
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) session.expire(error.message);
    throw error;
  }
}

/**
 * An image the API serves (a page's screenshot) as a `data:` URL for an `<img>`, which cannot send
 * the session's key itself (and the console's content policy takes images from itself and
 * `data:` only); null for a 404.
 */
export async function apiImage(path: string): Promise<string | null> {
  const key = session.key();
  const response = await fetch(path, {
    headers: key === null ? {} : { Authorization: `Bearer ${key}` },
  });
  if (response.status === 404) return null;
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => null);
    const detail =
      typeof payload === 'object' && payload !== null && 'detail' in payload
        ? payload.detail
        : null;
    const error = new ApiError(response.status, detail);
    if (response.status === 401) session.expire(error.message);
    throw error;
  }
  const blob = await response.blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read'));
    reader.readAsDataURL(blob);
  });
}
