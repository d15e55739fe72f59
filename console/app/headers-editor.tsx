import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { Field, plainText } from './ui';

interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

/** Why a row's name cannot be sent as given, or undefined: HTTP names ignore case. */
function repeatedName(rows: HeaderRow[], index: number): string | undefined {
  const name = rows[index].name.trim().toLowerCase();
  const earlier = rows.slice(0, index).some((row) => row.name.trim().toLowerCase() === name);
  return name !== '' && earlier
    ? 'This header is already set above; only the first is sent.'
    : undefined;
}

/**
 * HTTP headers sent with every request, as rows of a name and a value (a `headers` object). A
 * row without a name is not sent, nor is a repeated name after its first row; `emptyHint` says
 * what is sent without any.
 */
export function HeadersEditor(props: {
  id: string;
  label: string;
  emptyHint: string;
  headers: Record<string, string>;
  onChange: (headers: Record<string, string>) => void;
}): JSX.Element {
  const nextKey = useRef(0);
  const [rows, setRows] = useState<HeaderRow[]>(() =>
    Object.entries(props.headers).map(([name, value]) => ({ key: nextKey.current++, name, value })),
  );
  const update = (next: HeaderRow[]): void => {
    setRows(next);
    const headers: Record<string, string> = {};
    next.forEach((row, index) => {
      if (row.name.trim() !== '' && !repeatedName(next, index))
        headers[row.name.trim()] = row.value;
    });
    props.onChange(headers);
  };
  const edit = (index: number, change: Partial<HeaderRow>): void =>
    update(rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  return (
    <fieldset class="headers">
      <legend>{props.label}</legend>
      {rows.length === 0 && <p class="hint">{props.emptyHint}</p>}
      {rows.map((row, index) => {
        const id = `${props.id}-${row.key}`;
        return (
          <div class="header-row" key={row.key}>
            <Field
              id={`${id}-name`}
              label={`Header ${index + 1} name`}
              error={repeatedName(rows, index)}
            >
              {plainText(row.name, (name) => edit(index, { name }))}
            </Field>
            <Field id={`${id}-value`} label={`Header ${index + 1} value`}>
              {plainText(row.value, (value) => edit(index, { value }))}
            </Field>
            <button
              type="button"
              class="small"
              aria-label={`Remove header ${index + 1}`}
              onClick={() => update(rows.filter((_, at) => at !== index))}
            >
              Remove
            </button>
          </div>
        );
      })}
      <button
        type="button"
        class="small"
        onClick={() => update([...rows, { key: nextKey.current++, name: '', value: '' }])}
      >
        Add a header
      </button>
    </fieldset>
  );
}
