/**
 * Time zone names as the console offers and compares them. A zone may go by several IANA names
 * (`Asia/Kathmandu` and `Asia/Katmandu`); the service keeps the one the person chose
 * (docs/attention.md, "Preferences"), and the browser may know the zone by the other.
 */

/** The IANA names this browser knows, for the time zone field's list. */
export function timeZones(): string[] {
  const names = Intl.supportedValuesOf('timeZone');
  return names.includes('UTC') ? names : ['UTC', ...names];
}

/** Whether two names are one zone; a name the browser does not know matches only itself. */
export function sameTimeZone(a: string, b: string): boolean {
  return a === b || (zoneOf(a) !== null && zoneOf(a) === zoneOf(b));
}

function zoneOf(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
