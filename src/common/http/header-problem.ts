import { validateHeaderName, validateHeaderValue } from 'node:http';

const MAX_HEADER_VALUE_LENGTH = 4096;

/**
 * Why HTTP would refuse a user-configured request header (webhooks, pages), or null. Node's own
 * checks (the ones its HTTP client applies when it sends the request): a name must be an HTTP
 * token; a value may hold tabs and characters 0x20-0x7E and 0x80-0xFF only.
 */
export function headerProblem(name: string, value: unknown): string | null {
  try {
    validateHeaderName(name);
  } catch {
    return `header name '${name}' is not valid`;
  }
  if (typeof value !== 'string' || value.length > MAX_HEADER_VALUE_LENGTH) {
    return `header '${name}' must have a string value of at most ${MAX_HEADER_VALUE_LENGTH} characters`;
  }
  try {
    validateHeaderValue(name, value);
  } catch {
    return `header '${name}' has a value HTTP does not allow (control characters, line breaks or characters beyond Latin-1)`;
  }
  return null;
}
