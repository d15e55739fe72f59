import type { JSX } from 'preact';
import { HeadersEditor } from './headers-editor';
import { PAGE_RULES } from './labels';
import {
  MAX_PAGES,
  MAX_VALUES,
  pageRow,
  valueNames,
  type PageRow,
  type PagesValues,
} from './page-form';
import { PageValuesEditor } from './page-values-editor';
import { Field, plainText } from './ui';

/**
 * Pages to fetch instead of searching the web (url, selector, browser and wait_for, headers), and
 * the page rule.
 */
export function PageFields(props: {
  values: PagesValues;
  errors: Record<string, string>;
  onChange: (values: PagesValues) => void;
}): JSX.Element {
  const { values, errors } = props;
  const setRows = (rows: PageRow[]): void => props.onChange({ ...values, rows });
  const edit = (index: number, change: Partial<PageRow>): void =>
    setRows(values.rows.map((page, at) => (at === index ? { ...page, ...change } : page)));
  const declared = values.rows.reduce((count, row) => count + row.values.length, 0);
  const names = valueNames(values);
  return (
    <fieldset class="page-targets" aria-describedby={errors.pages ? 'pages-error' : undefined}>
      <legend>Pages</legend>
      <p class="hint">
        {values.rows.length === 0
          ? 'None: every check searches the web.'
          : 'Every check reads these pages instead of searching the web.'}
      </p>
      {values.rows.map((page, index) => {
        const id = `page-${page.key}`;
        return (
          <div class="page-target" key={page.key}>
            <Field id={`${id}-url`} label={`Page ${index + 1} URL`}>
              {(attributes) => (
                <input
                  {...attributes}
                  type="text"
                  inputMode="url"
                  autoComplete="off"
                  spellcheck={false}
                  value={page.url}
                  onInput={(event) => edit(index, { url: event.currentTarget.value })}
                />
              )}
            </Field>
            <Field
              id={`${id}-selector`}
              label={`Page ${index + 1} CSS selector (optional)`}
              hint="Only the text of the matching elements is read (HTML pages)."
            >
              {plainText(page.selector, (text) => edit(index, { selector: text }), 200)}
            </Field>
            <Field
              id={`${id}-items`}
              label={`Read page ${index + 1} as a list of items`}
              hint="A feed (RSS, Atom, JSON Feed), or an HTML list by the selector of its items: the page changes when new items appear."
            >
              {(attributes) => (
                <input
                  {...attributes}
                  type="checkbox"
                  checked={page.items}
                  onChange={(event) => edit(index, { items: event.currentTarget.checked })}
                />
              )}
            </Field>
            {page.items && (
              <Field
                id={`${id}-items-selector`}
                label={`Page ${index + 1} items selector (HTML lists)`}
                hint="Each matching element is an item: its text is the title, its first link the URL. Leave empty for a feed."
              >
                {plainText(page.itemsSelector, (text) => edit(index, { itemsSelector: text }), 200)}
              </Field>
            )}
            <label class="check" for={`${id}-browser`}>
              <input
                id={`${id}-browser`}
                type="checkbox"
                checked={page.browser}
                onChange={(event) => edit(index, { browser: event.currentTarget.checked })}
              />
              Page {index + 1} needs a browser (its scripts draw it)
            </label>
            {page.browser && (
              <Field
                id={`${id}-wait-for`}
                label={`Page ${index + 1} wait for (optional CSS selector)`}
                hint="Read once an element matches; else once the network is quiet for 500 ms."
              >
                {plainText(page.waitFor, (text) => edit(index, { waitFor: text }), 200)}
              </Field>
            )}
            <HeadersEditor
              id={`${id}-headers`}
              label={`Page ${index + 1} request headers (optional)`}
              emptyHint="None: the page is fetched without a cookie or token."
              headers={page.headers}
              onChange={(headers) => edit(index, { headers })}
            />
            <PageValuesEditor
              id={`${id}-values`}
              page={index + 1}
              values={page.values}
              canAdd={declared < MAX_VALUES}
              onChange={(pageValues) => edit(index, { values: pageValues })}
            />
            <button
              type="button"
              class="small"
              aria-label={`Remove page ${index + 1}`}
              onClick={() => setRows(values.rows.filter((_, at) => at !== index))}
            >
              Remove page
            </button>
          </div>
        );
      })}
      {values.rows.length < MAX_PAGES && (
        <button
          type="button"
          class="small"
          onClick={() => setRows([...values.rows, pageRow({ url: '' })])}
        >
          Add a page
        </button>
      )}
      {errors.pages && (
        <p class="field-error" id="pages-error" role="alert" tabIndex={-1}>
          {errors.pages}
        </p>
      )}
      {values.rows.length > 0 && (
        <div class="field-row">
          <Field id="page-rule" label="Page rule" error={errors.page_rule}>
            {(attributes) => (
              <select
                {...attributes}
                value={values.rule}
                onChange={(event) =>
                  props.onChange({
                    ...values,
                    rule: event.currentTarget.value as PagesValues['rule'],
                  })
                }
              >
                {Object.entries(PAGE_RULES).map(([rule, label]) => (
                  <option key={rule} value={rule}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {(values.rule === 'below' || values.rule === 'above' || values.rule === 'equals') && (
            <>
              <Field id="page-rule-value" label="Value" hint="One of the values the pages read.">
                {(attributes) => (
                  <select
                    {...attributes}
                    value={values.ruleValue}
                    onChange={(event) =>
                      props.onChange({ ...values, ruleValue: event.currentTarget.value })
                    }
                  >
                    <option value="">Choose a value</option>
                    {names.map((name) => (
                      <option key={name} value={name}>
                        {name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                id="page-rule-operand"
                label={values.rule === 'equals' ? 'Equals' : 'Than'}
                hint={
                  values.rule === 'equals'
                    ? 'Text is compared trimmed, in any case.'
                    : 'A number, such as 99.90.'
                }
              >
                {(attributes) => (
                  <input
                    {...attributes}
                    type="text"
                    inputMode={values.rule === 'equals' ? undefined : 'decimal'}
                    value={values.ruleOperand}
                    onInput={(event) =>
                      props.onChange({ ...values, ruleOperand: event.currentTarget.value })
                    }
                  />
                )}
              </Field>
            </>
          )}
          {(values.rule === 'contains' || values.rule === 'not_contains') && (
            <Field id="page-rule-text" label="Text" hint="1 to 200 characters, any case.">
              {(attributes) => (
                <input
                  {...attributes}
                  type="text"
                  maxLength={200}
                  value={values.ruleText}
                  onInput={(event) =>
                    props.onChange({ ...values, ruleText: event.currentTarget.value })
                  }
                />
              )}
            </Field>
          )}
        </div>
      )}
    </fieldset>
  );
}
