/** Username rules (`PATCH /api/v1/users/me/username`). */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
/** Lowercase only: uppercase input is rejected, not folded, so what the user typed is what is stored. */
export const USERNAME_PATTERN = /^[a-z][a-z0-9_-]*$/;

/**
 * Names that could pass for the service itself or collide with path segments of public pages.
 * Claiming one answers 409 like a taken name: to a client it is simply not available. Names
 * shorter than the minimum (`me`) are refused by the length rule already.
 */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'about',
  'account',
  'admin',
  'administrator',
  'api',
  'auth',
  'billing',
  'docs',
  'help',
  'login',
  'logout',
  'monitor',
  'monitors',
  'null',
  'official',
  'owner',
  'public',
  'root',
  'rss',
  'security',
  'settings',
  'signin',
  'signup',
  'staff',
  'status',
  'support',
  'system',
  'task',
  'tasks',
  'undefined',
  'user',
  'users',
  'waitlist',
  'www',
]);

export function isWellFormedUsername(value: string): boolean {
  return (
    value.length >= USERNAME_MIN_LENGTH &&
    value.length <= USERNAME_MAX_LENGTH &&
    USERNAME_PATTERN.test(value)
  );
}
