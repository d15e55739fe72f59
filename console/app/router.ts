import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (`#/tasks/<id>`), so every page is `GET /console` to the service and a reload
 * keeps the page. A route is its path segments and its query.
 */
export interface Route {
  segments: string[];
  query: URLSearchParams;
}

function currentRoute(): Route {
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  return { segments: path.split('/').filter(Boolean), query: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = (): void => setRoute(currentRoute());
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function navigate(hash: string): void {
  location.hash = hash;
}
