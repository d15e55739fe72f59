import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Hash routes (`#/tasks/<id>`), so every page is `GET /console` to the service and a reload
 * keeps the page. A route is its path segments and its query.
 */
export interface Route {
  segments: string[];
  query: URLSearchParams;
}

/** The task list is the console's first page: `/console` alone is `#/tasks`. */
function currentRoute(): Route {
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const segments = path.split('/').filter(Boolean);
  return {
    segments: segments.length === 0 ? ['tasks'] : segments,
    query: new URLSearchParams(query),
  };
}

/**
 * Set when another page is asked for (not when only the query changes, as a filter does), until
 * that page's heading is on screen and takes the focus (`PageHeading` in ui.tsx).
 */
let headingFocusPending = false;

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  const path = useRef(route.segments.join('/'));
  useEffect(() => {
    const update = (): void => {
      const next = currentRoute();
      const nextPath = next.segments.join('/');
      if (nextPath !== path.current) focusNextHeading();
      path.current = nextPath;
      setRoute(next);
    };
    addEventListener('hashchange', update);
    // The address may have changed between the first render and this subscription.
    update();
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function navigate(hash: string): void {
  location.hash = hash;
}

/** The next page heading that appears takes the focus (after a navigation, after sign-in). */
export function focusNextHeading(): void {
  headingFocusPending = true;
}

/** Whether a heading appearing now should take the focus; asking answers it. */
export function takeHeadingFocus(): boolean {
  const pending = headingFocusPending;
  headingFocusPending = false;
  return pending;
}
