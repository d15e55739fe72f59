import type { JSX } from 'preact';
import { safeHttpUrl } from './format';
import { PAGE_RULES, PAGE_STATUSES } from './labels';
import type { PageResult, PageRule, PageTarget } from './types';
import { Badge } from './ui';

/** A page's link: the URL when it is http(s), else the text alone. */
function PageLink(props: { url: string; label: string }): JSX.Element {
  const href = safeHttpUrl(props.url);
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {props.label}
    </a>
  ) : (
    <span>{props.label}</span>
  );
}

/** The pages a task watches, each with its selector, and its page rule. */
export function PageTargets(props: { pages: PageTarget[]; rule: PageRule | null }): JSX.Element {
  const { rule } = props;
  return (
    <>
      <ul class="sources">
        {props.pages.map((page) => (
          <li key={page.url}>
            <PageLink url={page.url} label={page.url} />
            {page.selector && <span class="source-uri">Selector: {page.selector}</span>}
            {page.items && (
              <span class="source-uri">
                {page.items.selector ? `Items: ${page.items.selector}` : 'Items of its feed'}
              </span>
            )}
            {page.values && (
              <span class="source-uri">
                Values: {page.values.map((value) => `${value.name} (${value.from})`).join(', ')}
              </span>
            )}
          </li>
        ))}
      </ul>
      <p>
        Page rule: {rule ? PAGE_RULES[rule.type] : PAGE_RULES.none}
        {rule?.text !== undefined && <>: “{rule.text}”</>}
        {rule?.value !== undefined && (
          <>
            : {rule.value} {rule.type === 'equals' ? '=' : rule.type === 'below' ? '<' : '>'}{' '}
            {JSON.stringify(rule.than ?? rule.to)}
          </>
        )}
      </p>
    </>
  );
}

/**
 * What each page of a check read: its status, HTTP status and error, its new items (each linked)
 * and the lines that were added (`+`, green) and removed (`-`, red), as plain text. A page read with its owner's headers
 * shows others no lines (they are null: docs/pages.md, "Public tasks").
 */
export function PageResults(props: { results: PageResult[] }): JSX.Element {
  return (
    <ul class="page-results">
      {props.results.map((page) => (
        <PageResultItem key={page.url} page={page} />
      ))}
    </ul>
  );
}

function PageResultItem({ page }: { page: PageResult }): JSX.Element {
  const newItems = page.new_items ?? [];
  // A list's added lines are its new items, shown linked instead.
  const added = newItems.length > 0 ? [] : (page.added ?? []);
  const removed = page.removed ?? [];
  return (
    <li>
      <div>
        <PageLink url={page.final_url ?? page.url} label={page.title || page.url} />{' '}
        <Badge value={page.status} labels={PAGE_STATUSES} />
        {page.http_status !== null && <span class="muted"> HTTP {page.http_status}</span>}
      </div>
      {page.title && <span class="source-uri">{page.url}</span>}
      {page.error && <p class="field-error">{page.error}</p>}
      {page.values && Object.keys(page.values).length > 0 && (
        <ul class="page-values" aria-label={`Values read on ${page.url}`}>
          {Object.entries(page.values).map(([name, value]) => (
            <li key={name}>
              {name}:{' '}
              {value === null ? (
                <span class="muted">not read ({page.value_errors?.[name] ?? 'not found'})</span>
              ) : (
                <strong>{String(value)}</strong>
              )}
            </li>
          ))}
        </ul>
      )}
      {page.added === null && (
        <p class="muted">Read with its owner's credentials: what it holds is not shown.</p>
      )}
      {newItems.length > 0 && (
        <ul class="sources" aria-label={`New items on ${page.url}`}>
          {newItems.map((item, index) => (
            <li key={index}>
              {item.url ? <PageLink url={item.url} label={item.title || item.url} /> : item.title}
            </li>
          ))}
        </ul>
      )}
      {(added.length > 0 || removed.length > 0) && (
        <pre class="diff" aria-label={`Lines added and removed on ${page.url}`}>
          {added.map((line, index) => (
            <span key={`a${index}`} class="diff-added">
              + {line}
              {'\n'}
            </span>
          ))}
          {removed.map((line, index) => (
            <span key={`r${index}`} class="diff-removed">
              - {line}
              {'\n'}
            </span>
          ))}
        </pre>
      )}
    </li>
  );
}
