import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, request } from '../api';
import { focusNextHeading } from '../router';
import { session } from '../session';
import { Field, useTitle } from '../ui';

/**
 * Paste an API key; it is kept in this tab's sessionStorage only, once the service accepted it.
 * The field has the focus, and gets it back with the reason when a key is refused.
 */
export function SignInPage(props: { message: string | null }): JSX.Element {
  useTitle('Sign in');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState(props.message);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const refuse = (reason: string): void => {
    setError(reason);
    input.current?.focus();
  };
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setMessage(null);
    const trimmed = key.trim();
    if (trimmed === '') return refuse('Paste an API key (it starts with sk_).');
    setBusy(true);
    setError(undefined);
    try {
      await request('GET', '/auth/me', undefined, trimmed);
    } catch (failure) {
      setBusy(false);
      return refuse(
        failure instanceof ApiError && failure.status === 401
          ? `This API key was not accepted (${failure.message}). Check that you pasted all of it.`
          : `Could not sign in: ${(failure as Error).message}`,
      );
    }
    focusNextHeading();
    session.signIn(trimmed);
  };
  return (
    <main id="main" class="sign-in">
      <form class="card sign-in-card" onSubmit={(event) => void submit(event)} noValidate>
        <h1>Task Monitor</h1>
        <p class="muted">Sign in with an API key to see and manage your monitoring tasks.</p>
        {message && (
          <p class="notice notice-bad" role="alert">
            {message}
          </p>
        )}
        <Field
          id="api-key"
          label="API key"
          error={error}
          hint="Kept in this browser tab only, and sent only in the Authorization header."
        >
          {(attributes) => (
            <input
              {...attributes}
              ref={input}
              type="password"
              autoComplete="off"
              spellcheck={false}
              value={key}
              onInput={(event) => setKey(event.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
