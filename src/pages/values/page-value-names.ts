import type { PageTarget } from '../page.types';

/** The names of the values a task's pages declare, in the pages' order. */
export function declaredValueNames(pages: readonly PageTarget[] | null): string[] {
  return (pages ?? []).flatMap((page) => (page.values ?? []).map((value) => value.name));
}
