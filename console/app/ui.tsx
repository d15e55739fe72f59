/** The console's building blocks: load states, badges, confirmations, sources, fields. */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { formatValue, safeHttpUrl } from './format';
import { labelOf } from './labels';
import { takeHeadingFocus } from './router';
import type { OutputValue, Source } from './types';
import type { Loaded } from './use-load';

/**
 * Loading, error (with a retry) and empty states around what a page loaded. A 404 is no
 * passing failure: with `notFound` it shows that instead of offering a retry.
 */
export function LoadState<T>(props: {
  state: Loaded<T>;
  what: string;
  retry: () => void;
  isEmpty?: (data: T) => boolean;
  empty?: ComponentChildren;
  notFound?: ComponentChildren;
  children: (data: T) => ComponentChildren;
}): JSX.Element {
  const { state } = props;
  if (state.status === 'loading')
    return (
      <p class="state" role="status">
        <span class="spinner" aria-hidden="true" /> Loading {props.what}…
      </p>
    );
  if (state.status === 'error' && props.notFound && isNotFound(state.error))
    return <div class="state state-empty">{props.notFound}</div>;
  if (state.status === 'error')
    return (
      <div class="state state-error" role="alert">
        <p>
          Could not load {props.what}: {state.error.message}
        </p>
        <button type="button" onClick={props.retry}>
          Try again
        </button>
      </div>
    );
  if (props.isEmpty?.(state.data)) return <div class="state state-empty">{props.empty}</div>;
  return <>{props.children(state.data)}</>;
}

function isNotFound(error: Error): boolean {
  return error instanceof ApiError && error.status === 404;
}

const BADGE_TONES: Record<string, string> = {
  active: 'good',
  success: 'good',
  met: 'good',
  paused: 'muted',
  completed: 'info',
  pending: 'info',
  running: 'info',
  retrying: 'warn',
  failed: 'bad',
  cancelled: 'muted',
  held: 'info',
  skipped: 'muted',
  acknowledged: 'good',
  unacknowledged: 'warn',
  deactivated: 'bad',
  new: 'info',
  same: 'muted',
  changed: 'warn',
  error: 'bad',
};

/** An enum value as a coloured badge, named by its label in `labels` (`labels.ts`). */
export function Badge(props: { value: string; labels: Record<string, string> }): JSX.Element {
  return (
    <span class={`badge badge-${BADGE_TONES[props.value] ?? 'muted'}`}>
      {labelOf(props.labels, props.value)}
    </span>
  );
}

const VERDICTS: Record<string, string> = { met: 'Met', 'not-met': 'Not met' };

/** A met / not met / unknown badge for a verdict. */
export function MetBadge(props: { met: boolean | null | undefined }): JSX.Element {
  if (props.met === true) return <Badge value="met" labels={VERDICTS} />;
  if (props.met === false) return <Badge value="not-met" labels={VERDICTS} />;
  return <span class="muted">—</span>;
}

/** A button whose action runs only after the person confirms it in a modal dialog. */
export function ConfirmButton(props: {
  label: string;
  /** What the button does in full, when its label alone would be ambiguous (one per table row). */
  accessibleName?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  class?: string;
  disabled?: boolean;
}): JSX.Element {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        class={props.class}
        disabled={props.disabled}
        aria-label={props.accessibleName}
        onClick={() => dialog.current?.showModal()}
      >
        {props.label}
      </button>
      <dialog ref={dialog} aria-label={props.accessibleName ?? props.label}>
        <form method="dialog">
          <p>{props.question}</p>
          <div class="actions">
            <button value="cancel" autofocus>
              Cancel
            </button>
            <button value="confirm" class="danger" onClick={props.onConfirm}>
              {props.confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** Sources: a link only for an http(s) URL; anything else is shown as text. */
export function Sources(props: { sources: Source[] | null }): JSX.Element {
  if (!props.sources?.length) return <p class="muted">No sources.</p>;
  return (
    <ul class="sources">
      {props.sources.map((source, index) => {
        const href = safeHttpUrl(source.uri);
        const label = source.title || source.uri;
        return (
          <li key={index}>
            {href ? (
              <a href={href} target="_blank" rel="noopener noreferrer nofollow">
                {label}
              </a>
            ) : (
              <span>{label}</span>
            )}
            <span class="source-uri">{source.uri}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** Extracted values (`output_schema`), each under its name. */
export function Values(props: { values: Record<string, OutputValue> }): JSX.Element {
  return (
    <dl class="values">
      {Object.entries(props.values).map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{formatValue(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What a field gives its input: its id and how it is described. */
export interface FieldAttributes {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/**
 * A text input for what is typed exactly as it is (a header, a CSS selector, a name, a path),
 * never completed or corrected, for a `Field`.
 */
export function plainText(value: string, onText: (text: string) => void, maxLength?: number) {
  return (attributes: FieldAttributes): JSX.Element => (
    <input
      {...attributes}
      type="text"
      autoComplete="off"
      spellcheck={false}
      maxLength={maxLength}
      value={value}
      onInput={(event) => onText(event.currentTarget.value)}
    />
  );
}

/** A labelled form field with its error (from the API's `detail`) right below it. */
export function Field(props: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: (attributes: FieldAttributes) => ComponentChildren;
}): JSX.Element {
  const described = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class={`field${props.error ? ' field-invalid' : ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children({
        id: props.id,
        'aria-describedby': described || undefined,
        'aria-invalid': props.error ? true : undefined,
      })}
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="field-error" id={`${props.id}-error`} role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

/**
 * A refused action moves the focus to what needs fixing: the first invalid field of `form`, else
 * the error that names no field (docs/console.md, "Every page, at every width").
 */
export function useFocusOnRefusal(
  form: { current: HTMLFormElement | null },
  errors: Record<string, string>,
): void {
  // Before the browser paints: the refusal and the focus on its field show together.
  useLayoutEffect(() => {
    if (Object.keys(errors).length === 0) return;
    form.current
      ?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"][tabindex="-1"]')
      ?.focus();
  }, [form, errors]);
}

/** An action's outcome, shown until the next action. */
export interface NoticeValue {
  tone: 'good' | 'bad';
  text: string;
}

export function Notice(props: { notice: NoticeValue | null }): JSX.Element | null {
  if (!props.notice) return null;
  return (
    <p
      class={`notice notice-${props.notice.tone}`}
      role={props.notice.tone === 'bad' ? 'alert' : 'status'}
    >
      {props.notice.text}
    </p>
  );
}

/** A page's `<h1>`: it takes the focus when it appears after a navigation (router.ts). */
export function PageHeading(props: {
  id: string;
  class?: string;
  children: ComponentChildren;
}): JSX.Element {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeHeadingFocus()) heading.current?.focus();
  }, []);
  return (
    <h1 id={props.id} class={props.class} tabIndex={-1} ref={heading}>
      {props.children}
    </h1>
  );
}

/** A secret, hidden until asked for, and a button that copies it. */
export function Secret(props: { label: string; value: string }): JSX.Element {
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = (): void => {
    navigator.clipboard.writeText(props.value).then(
      () => setCopied('Copied.'),
      () => setCopied('Could not copy: show it and copy it by hand.'),
    );
  };
  return (
    <div class="secret">
      <span class="secret-label">{props.label}</span>{' '}
      <code class="wrap">{shown ? props.value : '••••••••••••'}</code>
      <div class="actions">
        <button
          type="button"
          class="small"
          aria-label={`${shown ? 'Hide' : 'Show'} ${props.label.toLowerCase()}`}
          onClick={() => setShown(!shown)}
        >
          {shown ? 'Hide' : 'Show'}
        </button>
        <button
          type="button"
          class="small"
          aria-label={`Copy ${props.label.toLowerCase()}`}
          onClick={copy}
        >
          Copy
        </button>
        <span role="status">{copied}</span>
      </div>
    </div>
  );
}

/** Sets the document title for the page on screen. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Task Monitor`;
  }, [title]);
}

/** One figure of a `<dl class="stats">`. */
export function Stat(props: { label: string; value: number | string }): JSX.Element {
  return (
    <div class="stat">
      <dt>{props.label}</dt>
      <dd>{typeof props.value === 'number' ? props.value.toLocaleString() : props.value}</dd>
    </div>
  );
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  /** `wrap` for long text, `nowrap` for dates. */
  class?: string;
}

/**
 * A table; on narrow screens each row is a card of its cells, each under its column's name
 * (`data-label`, styles.css), and on wide ones a table too wide scrolls sideways in its own box
 * (which the keyboard can scroll too).
 */
export function DataTable<T>(props: {
  label: string;
  rows: T[];
  rowKey: (row: T) => string;
  columns: Array<Column<T>>;
}): JSX.Element {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={props.label}>
      <table>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((column) => (
                <td key={column.header} class={column.class} data-label={column.header}>
                  <div class="cell-value">{column.cell(row)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
