import type { JSX } from 'preact';
import { VALUE_SOURCES } from './labels';
import { pageValueRow, type PageValueRow } from './page-form';
import type { PageValueSource } from './types';
import { Field, plainText } from './ui';

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
              {plainText(value.name, (text) => edit(index, { name: text }), 40)}
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
                {plainText(value.path, (text) => edit(index, { path: text }), 200)}
              </Field>
            ) : (
              value.from !== 'availability' && (
                <Field
                  id={`${id}-selector`}
                  label={`${label} CSS selector${value.from === 'text' ? '' : ' (optional)'}`}
                >
                  {plainText(value.selector, (text) => edit(index, { selector: text }), 200)}
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
