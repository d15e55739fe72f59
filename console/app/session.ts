/**
 * Who is signed in. The API key lives in `sessionStorage` only (gone with the tab) and leaves it
 * only in the `Authorization` header (`api.ts`). With `AUTH_DISABLED=true` the page says so in
 * its `<meta name="auth">` and no key is needed.
 */
const KEY_ITEM = 'task-monitor.api-key';

export type SessionState = { kind: 'signed-out'; message: string | null } | { kind: 'signed-in' };

type Listener = (state: SessionState) => void;

const listeners = new Set<Listener>();

function emit(state: SessionState): void {
  for (const listener of listeners) listener(state);
}

export const session = {
  authDisabled(): boolean {
    return document.querySelector('meta[name="auth"]')?.getAttribute('content') === 'disabled';
  },
  key(): string | null {
    return sessionStorage.getItem(KEY_ITEM);
  },
  initial(): SessionState {
    return this.authDisabled() || this.key() !== null
      ? { kind: 'signed-in' }
      : { kind: 'signed-out', message: null };
  },
  signIn(key: string): void {
    sessionStorage.setItem(KEY_ITEM, key);
    emit({ kind: 'signed-in' });
  },
  signOut(): void {
    sessionStorage.removeItem(KEY_ITEM);
    emit({ kind: 'signed-out', message: null });
  },
  /** A 401 from any call: back to sign-in, saying why. */
  expire(reason: string): void {
    sessionStorage.removeItem(KEY_ITEM);
    emit({
      kind: 'signed-out',
      message: `You were signed out: the service answered "${reason}". Sign in again with a valid API key.`,
    });
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
