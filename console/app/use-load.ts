import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type Loaded<T> =
  { status: 'loading' } | { status: 'error'; error: Error } | { status: 'ready'; data: T };

/**
 * Loads `load()` again whenever `key` (which names everything `load` reads) changes; `reload`
 * loads again without the loading state, so a refresh keeps the page on screen. An answer that
 * arrives after a newer load started is dropped.
 */
export function useLoad<T>(key: string, load: () => Promise<T>): [Loaded<T>, () => Promise<void>] {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const generation = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const data = await loader.current();
      if (mine === generation.current) setState({ status: 'ready', data });
    } catch (error) {
      if (mine === generation.current)
        setState({
          status: 'error',
          error: error instanceof Error ? error : new Error(String(error)),
        });
    }
  }, []);
  useEffect(() => {
    setState({ status: 'loading' });
    void reload();
  }, [key, reload]);
  return [state, reload];
}
