import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import { AdminPage } from './pages/admin-page';
import { PreferencesPage } from './pages/preferences-page';
import { SignInPage } from './pages/sign-in-page';
import { TaskFormPage } from './pages/task-form-page';
import { TaskPage } from './pages/task-page';
import { TasksPage } from './pages/tasks-page';
import { UsagePage } from './pages/usage-page';
import { useRoute, type Route } from './router';
import { session, type SessionState } from './session';
import type { Me } from './types';
import { LoadState } from './ui';
import { useLoad } from './use-load';

export function App(): JSX.Element {
  const [state, setState] = useState<SessionState>(() => session.initial());
  useEffect(() => session.subscribe(setState), []);
  return state.kind === 'signed-in' ? <SignedIn /> : <SignInPage message={state.message} />;
}

function SignedIn(): JSX.Element {
  const [me, reload] = useLoad('me', async () => {
    const [user, roles] = await Promise.all([
      api<Omit<Me, 'is_admin'>>('GET', '/auth/me'),
      api<Pick<Me, 'is_admin'>>('GET', '/auth/me/roles'),
    ]);
    return { ...user, ...roles };
  });
  const route = useRoute();
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="#/tasks">
          Task Monitor
        </a>
        <nav aria-label="Main">
          <ul>
            <NavLink href="#/tasks" active={route.segments[0] === 'tasks'}>
              Tasks
            </NavLink>
            <NavLink href="#/new" active={route.segments[0] === 'new'}>
              New task
            </NavLink>
            <NavLink href="#/usage" active={route.segments[0] === 'usage'}>
              Usage
            </NavLink>
            <NavLink href="#/preferences" active={route.segments[0] === 'preferences'}>
              Preferences
            </NavLink>
            {me.status === 'ready' && me.data.is_admin && (
              <NavLink href="#/admin" active={route.segments[0] === 'admin'}>
                Admin
              </NavLink>
            )}
          </ul>
        </nav>
        <div class="account">
          {me.status === 'ready' && (
            <span class="account-email">{me.data.email ?? 'Signed in'}</span>
          )}
          {!session.authDisabled() && (
            <button type="button" class="link-button" onClick={() => session.signOut()}>
              Sign out
            </button>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <LoadState state={me} what="your account" retry={() => void reload()}>
          {(caller) => <Page key={route.segments.join('/')} route={route} me={caller} />}
        </LoadState>
      </main>
    </>
  );
}

function NavLink(props: { href: string; active: boolean; children: string }): JSX.Element {
  return (
    <li>
      <a href={props.href} aria-current={props.active ? 'page' : undefined}>
        {props.children}
      </a>
    </li>
  );
}

/** The page of a route's path; another path is another page, mounted afresh. */
function Page(props: { route: Route; me: Me }): JSX.Element {
  const [first, id, action] = props.route.segments;
  if (first === 'new') return <TaskFormPage />;
  if (first === 'tasks' && id && action === 'edit') return <TaskFormPage taskId={id} />;
  if (first === 'tasks' && id) return <TaskPage taskId={id} />;
  if (first === 'preferences') return <PreferencesPage />;
  if (first === 'usage') return <UsagePage month={props.route.query.get('month')} />;
  if (first === 'admin' && props.me.is_admin) return <AdminPage me={props.me} />;
  return <TasksPage state={props.route.query.get('state') ?? ''} />;
}
