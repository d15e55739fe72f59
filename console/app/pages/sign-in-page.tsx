import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { session } from '../session';
import { Field, useTitle } from '../ui';

/** Paste an API key; it is kept in this tab's sessionStorage only. */
export function SignInPage(props: { message: string | null }): JSX.Element {
  useTitle('Sign in');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = (event: Event): void => {
    event.preventDefault();
    const trimmed = key.trim();
    if (trimmed === '') {
      setError('Paste an API key (it starts with sk_).');
      return;
    }
    session.signIn(trimmed);
  };
  return (
    <main id="main" class="sign-in">
      <form class="card sign-in-card" onSubmit={submit} noValidate>
        <h1>Task Monitor</h1>
        <p class="muted">Sign in with an API key to see and manage your monitoring tasks.</p>
        {props.message && (
          <p class="notice notice-bad" role="alert">
            {props.message}
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
              type="password"
              autoComplete="off"
              spellcheck={false}
              value={key}
              onInput={(event) => setKey(event.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </main>
  );
}
