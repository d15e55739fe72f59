import type { JSX } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api';
import { channelLabel, channelOf, destination, pauseOf, type ChannelValues } from '../channels';
import { formatDate, formatUsd, formatValue } from '../format';
import {
  CONFIG_STATES,
  EXECUTION_STATUSES,
  labelOf,
  NOTIFY_BEHAVIORS,
  SEND_EVENTS,
  SEND_STATUSES,
  TASK_STATES,
} from '../labels';
import { PageResults, PageTargets } from '../page-results';
import { PageSnapshots } from '../page-snapshots';
import { navigate } from '../router';
import { AlertCard, describeAlertPolicy } from '../standing-alert';
import type { Execution, SendRecord, Task, TestSendResult } from '../types';
import {
  Badge,
  ConfirmButton,
  DataTable,
  LoadState,
  MetBadge,
  Notice,
  PageHeading,
  Secret,
  Sources,
  useTitle,
  Values,
  type Column,
  type NoticeValue,
} from '../ui';
import { useLoad } from '../use-load';
import { ValueChart, type Point } from '../value-chart';

const IN_FLIGHT = ['pending', 'running', 'retrying'];
const POLL_MS = 1000;

/** One task: what it watches, its actions, its values over time, executions and sends. */
export function TaskPage(props: { taskId: string }): JSX.Element {
  const { taskId } = props;
  const [task, reloadTask] = useLoad(`task:${taskId}`, () =>
    api<Task>('GET', `/api/v1/tasks/${taskId}`),
  );
  const [executions, reloadExecutions] = useLoad(`executions:${taskId}`, () =>
    api<Execution[]>('GET', `/api/v1/tasks/${taskId}/executions?limit=50`),
  );
  const [sends, reloadSends] = useLoad(`sends:${taskId}`, () =>
    api<{ sends: SendRecord[] }>('GET', `/api/v1/notifications/sends?task_id=${taskId}&limit=50`),
  );
  useTitle(task.status === 'ready' ? task.data.name : 'Task');

  const refresh = useCallback((): void => {
    void reloadTask();
    void reloadExecutions();
    void reloadSends();
  }, [reloadTask, reloadExecutions, reloadSends]);

  const running =
    executions.status === 'ready' &&
    executions.data.some((execution) => IN_FLIGHT.includes(execution.status));
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [running, refresh]);

  return (
    <LoadState
      state={task}
      what="the task"
      retry={() => void reloadTask()}
      notFound={
        <>
          <PageHeading id="task-title">Task not found</PageHeading>
          <TaskNotFound />
        </>
      }
    >
      {(loaded) => (
        <article class="task" aria-labelledby="task-title">
          <TaskHeader
            task={loaded}
            executions={executions.status === 'ready' ? executions.data : null}
            onChanged={refresh}
          />
          <AlertCard task={loaded} onChanged={refresh} />
          <TaskDetails task={loaded} />
          <NotificationsCard task={loaded} onSent={() => void reloadSends()} onChanged={refresh} />
          <section class="card" aria-labelledby="charts-title">
            <h2 id="charts-title">Values over time</h2>
            <LoadState state={executions} what="executions" retry={() => void reloadExecutions()}>
              {(list) => <Charts task={loaded} executions={list} />}
            </LoadState>
          </section>
          <section class="card" aria-labelledby="executions-title">
            <h2 id="executions-title">Executions</h2>
            <LoadState
              state={executions}
              what="executions"
              retry={() => void reloadExecutions()}
              isEmpty={(list) => list.length === 0}
              empty={<p>No executions yet. Execute the task now to see a result.</p>}
            >
              {(list) => (
                <ol class="executions">
                  {list.map((execution, index) => (
                    <ExecutionItem key={execution.id} execution={execution} open={index === 0} />
                  ))}
                </ol>
              )}
            </LoadState>
          </section>
          <section class="card" aria-labelledby="sends-title">
            <h2 id="sends-title">Send records</h2>
            <LoadState
              state={sends}
              what="send records"
              retry={() => void reloadSends()}
              isEmpty={(data) => data.sends.length === 0}
              empty={<p>Nothing sent yet.</p>}
            >
              {(data) => <SendTable sends={data.sends} />}
            </LoadState>
          </section>
        </article>
      )}
    </LoadState>
  );
}

/** What a page of a task says when the service does not know the task (a 404). */
export function TaskNotFound(): JSX.Element {
  return (
    <p>
      No task of yours has this address: it may have been deleted.{' '}
      <a href="#/tasks">Back to your tasks</a>
    </p>
  );
}

/**
 * The task's name and actions, with the outcome of the last action; "Execution started." stays
 * until that run has finished (its result is then in the list below).
 */
function TaskHeader(props: {
  task: Task;
  executions: Execution[] | null;
  onChanged: () => void;
}): JSX.Element {
  const { task, executions } = props;
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const [busy, setBusy] = useState(false);
  const [startedRun, setStartedRun] = useState<string | null>(null);
  useEffect(() => {
    const finished = executions?.some(
      (execution) => execution.id === startedRun && !IN_FLIGHT.includes(execution.status),
    );
    if (!finished) return;
    setStartedRun(null);
    setNotice(null);
  }, [executions, startedRun]);

  async function act<R>(
    action: () => Promise<R>,
    done: string,
    after: () => void = props.onChanged,
  ): Promise<R | undefined> {
    setBusy(true);
    setNotice(null);
    setStartedRun(null);
    try {
      const result = await action();
      setNotice({ tone: 'good', text: done });
      after();
      return result;
    } catch (error) {
      setNotice({ tone: 'bad', text: (error as Error).message });
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  const execute = async (): Promise<void> => {
    const run = await act(
      () => api<Execution>('POST', `/api/v1/tasks/${task.id}/execute`),
      'Execution started.',
    );
    if (run) setStartedRun(run.id);
  };
  const setState = (state: string, done: string): Promise<void> =>
    act(() => api('PUT', `/api/v1/tasks/${task.id}`, { state }), done);
  return (
    <header class="page-head task-head">
      <div>
        <PageHeading id="task-title" class="wrap">
          {task.name}
        </PageHeading>
        <Badge value={task.state} labels={TASK_STATES} />
      </div>
      <div class="actions">
        <a class="button" href={`#/tasks/${task.id}/edit`}>
          Edit
        </a>
        {task.state === 'active' ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void setState('paused', 'Task paused.')}
          >
            Pause
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() => void setState('active', 'Task resumed.')}
          >
            Resume
          </button>
        )}
        <button type="button" class="primary" disabled={busy} onClick={() => void execute()}>
          Execute now
        </button>
        <ConfirmButton
          label="Delete"
          class="danger"
          disabled={busy}
          question={`Delete "${task.name}" with its executions? This cannot be undone.`}
          confirmLabel="Delete task"
          onConfirm={() =>
            void act(
              () => api('DELETE', `/api/v1/tasks/${task.id}`),
              'Task deleted.',
              () => navigate('#/tasks'),
            )
          }
        />
      </div>
      <Notice notice={notice} />
    </header>
  );
}

function TaskDetails(props: { task: Task }): JSX.Element {
  const { task } = props;
  return (
    <section class="card" aria-labelledby="details-title">
      <h2 id="details-title">What it watches</h2>
      <dl class="details">
        <dt>Search query</dt>
        <dd class="prose">{task.search_query}</dd>
        {task.pages && (
          <>
            <dt>Pages</dt>
            <dd>
              <PageTargets pages={task.pages} rule={task.page_rule ?? null} />
              <PageSnapshots taskId={task.id} pages={task.pages} />
            </dd>
          </>
        )}
        <dt>Condition</dt>
        <dd class="prose">{task.condition_description}</dd>
        <dt>Notify</dt>
        <dd>{labelOf(NOTIFY_BEHAVIORS, task.notify_behavior)}</dd>
        <dt>Alert policy</dt>
        <dd>{describeAlertPolicy(task.alert_policy)}</dd>
        <dt>Next run</dt>
        <dd>{formatDate(task.next_run)}</dd>
        <dt>Created</dt>
        <dd>{formatDate(task.created_at)}</dd>
        <dt>Output schema</dt>
        <dd>
          {task.output_schema ? <pre>{JSON.stringify(task.output_schema, null, 2)}</pre> : 'None'}
        </dd>
        <dt>Evidence rule</dt>
        <dd>{task.evidence ? <pre>{JSON.stringify(task.evidence, null, 2)}</pre> : 'None'}</dd>
      </dl>
    </section>
  );
}

/** What the last action on a config (a test send, a resume) came to. */
type ConfigOutcome =
  | { kind: 'test'; result: TestSendResult }
  | { kind: 'resumed' }
  | { kind: 'error'; message: string };

function NotificationsCard(props: {
  task: Task;
  onSent: () => void;
  onChanged: () => void;
}): JSX.Element {
  const { task } = props;
  const [outcomes, setOutcomes] = useState<Record<string, ConfigOutcome>>({});
  const [busy, setBusy] = useState<{ type: string; kind: 'test' | 'resume' } | null>(null);
  async function act(
    type: string,
    kind: 'test' | 'resume',
    action: () => Promise<ConfigOutcome>,
  ): Promise<void> {
    setBusy({ type, kind });
    let outcome: ConfigOutcome;
    try {
      outcome = await action();
    } catch (error) {
      outcome = { kind: 'error', message: (error as Error).message };
    } finally {
      setBusy(null);
    }
    setOutcomes((current) => ({ ...current, [type]: outcome }));
  }
  const test = (type: string): Promise<void> =>
    act(type, 'test', async () => {
      const answer = await api<{ results: TestSendResult[] }>(
        'POST',
        `/api/v1/tasks/${task.id}/notifications/test`,
        { type },
      );
      props.onSent();
      return { kind: 'test', result: answer.results[0] };
    });
  const resume = (type: string): Promise<void> =>
    act(type, 'resume', async () => {
      await api<Task>('POST', `/api/v1/tasks/${task.id}/notifications/${type}/resume`);
      props.onChanged();
      return { kind: 'resumed' };
    });
  return (
    <section class="card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      {task.notifications.length === 0 ? (
        <p class="muted">
          No notifications configured. <a href={`#/tasks/${task.id}/edit`}>Add one</a>.
        </p>
      ) : (
        <ul class="configs">
          {task.notifications.map((config: ChannelValues) => {
            const outcome = outcomes[config.type];
            const generated = channelOf(config.type)?.generatedSecret;
            const secret = generated && config[generated.name];
            const label = channelLabel(config.type);
            const pause = pauseOf(config);
            return (
              <li key={config.type}>
                <div>
                  <strong>{label}</strong> <span class="wrap muted">{destination(config)}</span>
                </div>
                <button
                  type="button"
                  disabled={busy !== null}
                  onClick={() => void test(config.type)}
                >
                  {busy?.type === config.type && busy.kind === 'test' ? 'Sending…' : 'Send a test'}
                </button>
                {pause && (
                  <div class="config-paused">
                    <Badge value="paused" labels={CONFIG_STATES} />
                    <span class="wrap">
                      Since {formatDate(pause.at)}: {pause.reason}. Nothing is sent until it
                      resumes.
                    </span>
                    <button
                      type="button"
                      class="small"
                      disabled={busy !== null}
                      aria-label={`Resume ${label}`}
                      onClick={() => void resume(config.type)}
                    >
                      Resume
                    </button>
                  </div>
                )}
                {generated && typeof secret === 'string' && (
                  <Secret label={generated.label} value={secret} />
                )}
                {outcome && <ConfigOutcomeLine outcome={outcome} label={label} />}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function ConfigOutcomeLine(props: { outcome: ConfigOutcome; label: string }): JSX.Element {
  const { outcome } = props;
  return (
    <p class="test-result" role="status">
      {outcome.kind === 'error' && <span class="field-error">{outcome.message}</span>}
      {outcome.kind === 'resumed' && `${props.label} resumed.`}
      {outcome.kind === 'test' && (
        <>
          Test send: <Badge value={outcome.result.status} labels={SEND_STATUSES} />
          {outcome.result.error_message && (
            <span class="wrap"> {outcome.result.error_message}</span>
          )}
        </>
      )}
    </p>
  );
}

/**
 * The numeric values of the schema, or those the pages read as numbers (docs/pages.md, "Values
 * read from pages"), each as points over time (oldest first).
 */
function numericSeries(task: Task, executions: Execution[]): Array<[string, Point[]]> {
  const names = [
    ...Object.entries(task.output_schema?.properties ?? {})
      .filter(([, property]) => property.type === 'number' || property.type === 'integer')
      .map(([name]) => name),
    ...(task.pages ?? []).flatMap((page) =>
      (page.values ?? [])
        .filter((value) => value.from !== 'text' && value.from !== 'availability')
        .map((value) => value.name),
    ),
  ];
  const finished = executions.filter((execution) => execution.values !== null).reverse();
  return names
    .map((name): [string, Point[]] => [
      name,
      finished.flatMap((execution) => {
        const value = execution.values?.[name];
        return typeof value === 'number'
          ? [{ time: Date.parse(execution.completed_at ?? execution.created_at) / 1000, value }]
          : [];
      }),
    ])
    .filter(([, points]) => points.length > 0);
}

function Charts(props: { task: Task; executions: Execution[] }): JSX.Element {
  const series = useMemo(
    () => numericSeries(props.task, props.executions),
    [props.task, props.executions],
  );
  if (series.length === 0)
    return (
      <p class="muted">
        {props.task.output_schema || props.task.pages?.some((page) => page.values)
          ? 'No numeric values recorded yet.'
          : 'Add an output schema with a number, or a value read from a page, to chart its values here.'}
      </p>
    );
  return (
    <div class="charts">
      {series.map(([name, points]) => (
        <ValueChart key={name} name={name} points={points} />
      ))}
    </div>
  );
}

function ExecutionItem(props: { execution: Execution; open: boolean }): JSX.Element {
  const { execution } = props;
  return (
    <li class="execution">
      <details open={props.open}>
        <summary>
          <Badge value={execution.status} labels={EXECUTION_STATUSES} />{' '}
          <span>{formatDate(execution.created_at)}</span> <MetBadge met={execution.condition_met} />
        </summary>
        <div class="execution-body">
          {execution.error_message && (
            <p class="notice notice-bad">
              <span class="wrap">{execution.error_message}</span>
            </p>
          )}
          <dl class="details">
            <dt>Condition met</dt>
            <dd>
              <MetBadge met={execution.condition_met} />
            </dd>
            <dt>Model claimed</dt>
            <dd>
              <MetBadge met={execution.claimed_met} />
            </dd>
            <dt>Finished</dt>
            <dd>{formatDate(execution.completed_at)}</dd>
            {execution.evidence && (
              <>
                <dt>Evidence</dt>
                <dd>
                  {execution.evidence.distinct_domains} distinct domain
                  {execution.evidence.distinct_domains === 1 ? '' : 's'},{' '}
                  {execution.evidence.trusted_matches} trusted,{' '}
                  {execution.evidence.satisfied ? 'satisfied' : 'not satisfied'}
                </dd>
              </>
            )}
            {execution.usage && (
              <>
                <dt>Usage</dt>
                <dd>
                  {execution.usage.provider} {execution.usage.model}: {execution.usage.input_tokens}{' '}
                  in, {execution.usage.output_tokens} out, {execution.usage.search_calls} search
                  {execution.usage.search_calls === 1 ? '' : 'es'},{' '}
                  {formatUsd(execution.usage.cost_usd)}
                </dd>
              </>
            )}
          </dl>
          {execution.answer !== null && (
            <>
              <h3>Answer</h3>
              <p class="prose answer">{execution.answer}</p>
            </>
          )}
          {execution.reasoning !== null && (
            <>
              <h3>Reasoning</h3>
              <p class="prose">{execution.reasoning}</p>
            </>
          )}
          {execution.values && (
            <>
              <h3>Values</h3>
              <Values values={execution.values} />
            </>
          )}
          {execution.changes && execution.changes.length > 0 && (
            <>
              <h3>Changes</h3>
              <ul class="changes">
                {execution.changes.map((change) => (
                  <li key={change.field}>
                    {change.field}: {formatValue(change.before)} → {formatValue(change.after)}
                  </li>
                ))}
              </ul>
            </>
          )}
          {execution.page_results && (
            <>
              <h3>Pages</h3>
              <PageResults results={execution.page_results} />
            </>
          )}
          {execution.status === 'success' && (
            <>
              <h3>Sources</h3>
              <Sources sources={execution.grounding_sources} />
            </>
          )}
        </div>
      </details>
    </li>
  );
}

const SEND_COLUMNS: Array<Column<SendRecord>> = [
  { header: 'When', class: 'nowrap', cell: (send) => formatDate(send.created_at) },
  { header: 'Channel', cell: (send) => channelLabel(send.notification_type) },
  { header: 'Event', cell: (send) => labelOf(SEND_EVENTS, send.event) },
  { header: 'Status', cell: (send) => <Badge value={send.status} labels={SEND_STATUSES} /> },
  { header: 'Recipient', class: 'wrap', cell: (send) => send.recipient },
  { header: 'Error', class: 'wrap', cell: (send) => send.error_message ?? '—' },
];

function SendTable(props: { sends: SendRecord[] }): JSX.Element {
  return (
    <DataTable
      label="Send records"
      rows={props.sends}
      rowKey={(send) => send.id}
      columns={SEND_COLUMNS}
    />
  );
}
