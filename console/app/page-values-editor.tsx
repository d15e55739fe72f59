import type { JSX } from 'preact';
import { VALUE_SOURCES } from './labels';
import { pageValueRow, type PageValueRow } from './page-form';
import type { PageValueSource } from './types';
import { Field } from './ui';

/** The values one page reads (docs/pages.md, "Values read from pages"): name, source, selector or path. */
export function PageValuesEditor(props: {
  id: string;
  page: number;
  values: PageValueRow[];
  /** Whether the task's pages may read one more value. */
  canAdd: boolean;
  onChange: (values: PageValueRow[]) => void;
}): JSX.Element {
  const { values, page } = props;
  const edit = (index: number, change: Partial<PageValueRow>): void =>
    props.onChange(values.map((value, at) => (at === index ? { ...value, ...change } : value)));
  return (
    <fieldset class="page-values">
      <legend>{`Page ${page} values (optional)`}</legend>
      {values.length === 0 && (
        <p class="hint">None: add a price, a number or a text to read at every check.</p>
      )}
      {values.map((value, index) => {
        const id = `${props.id}-${value.key}`;
        const label = `Page ${page} value ${index + 1}`;
        return (
          <div class="field-row" key={value.key}>
            <Field id={`${id}-name`} label={`${label} name`} hint="a-z, 0-9 and _">
              {(attributes) => (
                <input
                  {...attributes}
                  type="text"
                  autoComplete="off"
                  spellcheck={false}
                  maxLength={40}
                  value={value.name}
                  onInput={(event) => edit(index, { name: event.currentTarget.value })}
                />
              )}
            </Field>
            <Field id={`${id}-from`} label={`${label} read from`}>
              {(attributes) => (
                <select
                  {...attributes}
                  value={value.from}
                  onChange={(event) =>
                    edit(index, { from: event.currentTarget.value as PageValueSource })
                  }
                >
                  {Object.entries(VALUE_SOURCES).map(([from, text]) => (
                    <option key={from} value={from}>
                      {text}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {value.from === 'json' ? (
              <Field
                id={`${id}-path`}
                label={`${label} JSONPath`}
                hint="For example $.data.version"
              >
                {(attributes) => (
                  <input
                    {...attributes}
                    type="text"
                    autoComplete="off"
                    spellcheck={false}
                    maxLength={200}
                    value={value.path}
                    onInput={(event) => edit(index, { path: event.currentTarget.value })}
                  />
                )}
              </Field>
            ) : (
              value.from !== 'availability' && (
                <Field
                  id={`${id}-selector`}
                  label={`${label} CSS selector${value.from === 'text' ? '' : ' (optional)'}`}
                >
                  {(attributes) => (
                    <input
                      {...attributes}
                      type="text"
                      autoComplete="off"
                      spellcheck={false}
                      maxLength={200}
                      value={value.selector}
                      onInput={(event) => edit(index, { selector: event.currentTarget.value })}
                    />
                  )}
                </Field>
              )
            )}
            <button
              type="button"
              class="small"
              aria-label={`Remove ${label.toLowerCase()}`}
              onClick={() => props.onChange(values.filter((_, at) => at !== index))}
            >
              Remove value
            </button>
          </div>
        );
      })}
      {props.canAdd && (
        <button
          type="button"
          class="small"
          onClick={() => props.onChange([...values, pageValueRow({ name: '', from: 'price' })])}
        >
          Add a value
        </button>
      )}
    </fieldset>
  );
}
