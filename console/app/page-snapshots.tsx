import type { JSX } from 'preact';
import { api, apiImage } from './api';
import type { PageSnapshot, PageTarget } from './types';
import { useLoad } from './use-load';

/**
 * What each page of a task last showed (`GET /api/v1/tasks/{id}/pages`, its owner's only; others
 * see nothing here): its title and text, and beside them, for a page read in a browser, its last
 * screenshot (docs/pages.md, "Screenshots").
 */
export function PageSnapshots(props: { taskId: string; pages: PageTarget[] }): JSX.Element | null {
  const { taskId, pages } = props;
  const [snapshots] = useLoad(`page-snapshots:${taskId}`, () =>
    api<PageSnapshot[]>('GET', `/api/v1/tasks/${taskId}/pages`),
  );
  if (snapshots.status !== 'ready') return null;
  return (
    <ul class="page-snapshots" aria-label="What each page last showed">
      {snapshots.data.map((snapshot, index) => (
        <li key={snapshot.url}>
          <div class="page-snapshot-text">
            <strong>{snapshot.title || snapshot.url}</strong>
            {snapshot.text === null ? (
              <p class="muted">Not read yet.</p>
            ) : (
              <pre class="diff" aria-label={`Text of ${snapshot.url}`}>
                {snapshot.text}
              </pre>
            )}
          </div>
          {pages[index]?.render === 'browser' && snapshot.fetched_at !== null && (
            <Screenshot
              path={`/api/v1/tasks/${taskId}/pages/${index}/screenshot`}
              version={snapshot.fetched_at}
              label={`The page ${snapshot.url} as the browser last drew it`}
            />
          )}
        </li>
      ))}
    </ul>
  );
}

/** A screenshot the API serves, loaded again when `version` moves; nothing when there is none. */
function Screenshot(props: { path: string; version: string; label: string }): JSX.Element | null {
  const [image] = useLoad(`${props.path}@${props.version}`, () => apiImage(props.path));
  const url = image.status === 'ready' ? image.data : null;
  return url === null ? null : <img class="page-screenshot" src={url} alt={props.label} />;
}
