import type { JSX } from 'preact';
import { api } from '../api';
import { formatMonth, formatUsd, thisUtcMonth } from '../format';
import { navigate } from '../router';
import type { UsageMonth } from '../types';
import { LoadState, PageHeading, Stat, useTitle } from '../ui';
import { useLoad } from '../use-load';

/** A month's cost against the budget, and what it was spent on; this UTC month unless `month`. */
export function UsagePage(props: { month: string | null }): JSX.Element {
  useTitle('Usage');
  const query = props.month ? `?month=${encodeURIComponent(props.month)}` : '';
  const [usage, reload] = useLoad(`usage:${query}`, () =>
    api<UsageMonth>('GET', `/api/v1/usage${query}`),
  );
  return (
    <section aria-labelledby="usage-title">
      <div class="page-head">
        <PageHeading id="usage-title">Usage</PageHeading>
      </div>
      <div class="toolbar">
        <label for="usage-month">Month</label>
        <input
          id="usage-month"
          type="month"
          max={thisUtcMonth()}
          value={props.month ?? thisUtcMonth()}
          onChange={(event) =>
            navigate(
              event.currentTarget.value ? `#/usage?month=${event.currentTarget.value}` : '#/usage',
            )
          }
        />
      </div>
      <LoadState state={usage} what="usage" retry={() => void reload()}>
        {(month) => (
          <>
            <div class="card">
              <h2>{formatMonth(month.month)}</h2>
              <p class="big-number">
                {formatUsd(month.cost_usd)}
                <span class="muted">
                  {month.budget_usd === null
                    ? ' — no monthly budget set'
                    : ` of ${formatUsd(month.budget_usd)} budget`}
                </span>
              </p>
              {month.budget_usd !== null && (
                <>
                  <label for="budget-meter">Budget used</label>
                  <meter
                    id="budget-meter"
                    min={0}
                    max={month.budget_usd}
                    high={month.budget_usd * 0.8}
                    value={month.cost_usd}
                  />
                  <p class="muted">
                    {month.budget_usd > 0
                      ? Math.round((month.cost_usd / month.budget_usd) * 100)
                      : 100}
                    % used
                  </p>
                </>
              )}
              {month.executions === 0 && month.llm_calls === 0 && (
                <p class="muted">Nothing used in {formatMonth(month.month)}.</p>
              )}
            </div>
            <dl class="stats">
              <Stat label="Executions" value={month.executions} />
              <Stat label="Model calls" value={month.llm_calls} />
              <Stat label="Input tokens" value={month.input_tokens} />
              <Stat label="Output tokens" value={month.output_tokens} />
              <Stat label="Searches" value={month.search_calls} />
            </dl>
          </>
        )}
      </LoadState>
    </section>
  );
}
